import TerminalImage
import TerminalUI
import XCTest

/// The themes: light terminals get dark inks, high contrast gets no dim text, and roles take the settings' colours.
final class ThemeTests: XCTestCase {
    func test_darkTheme_isTheDefault_andKeepsItsColours() {
        let theme = Theme(colorMode: .truecolor, unicode: true)
        XCTAssertEqual(theme.name, .dark)
        XCTAssertEqual(theme.bar.background, .rgb(RGB(48, 48, 52)))
        XCTAssertEqual(theme.likedHeart.foreground, .rgb(RGB(230, 60, 70)))
    }

    func test_lightTheme_darkInkOnLightBars() {
        let theme = Theme(colorMode: .truecolor, unicode: true, name: .light)
        guard case let .rgb(background) = theme.bar.background, case let .rgb(text) = theme.bar.foreground else {
            return XCTFail("24-bit colours expected")
        }
        XCTAssertGreaterThan(Int(background.red) + Int(background.green) + Int(background.blue), 600, "a light bar")
        XCTAssertLessThan(Int(text.red) + Int(text.green) + Int(text.blue), 120, "dark text on it")
        // With 16 colours: black on white-ish gray, and a blue accent that reads on white.
        let sixteen = Theme(colorMode: .palette16, unicode: true, name: .light)
        XCTAssertEqual(sixteen.bar.foreground, .indexed(0))
        XCTAssertEqual(sixteen.bar.background, .indexed(7))
        XCTAssertEqual(sixteen.accent.foreground, .indexed(4))
    }

    func test_highContrast_nothingDim_blackAndWhiteBars() {
        let theme = Theme(colorMode: .palette8, unicode: true, name: .highContrast)
        XCTAssertFalse(theme.muted.dim)
        XCTAssertEqual(theme.bar.background, .indexed(0))
        XCTAssertEqual(theme.bar.foreground, .indexed(7))
        XCTAssertTrue(theme.bar.bold)
        XCTAssertTrue(Theme(colorMode: .palette8, unicode: true).muted.dim, "the dark theme dims with eight colours")
    }

    func test_overrides_takeTheirRoles_inEveryColourMode() {
        let overrides: [ThemeRole: ThemeColor] = [.heart: .rgb(RGB(0, 200, 0)), .tabBar: .index(17), .selection: .index(208)]
        let truecolor = Theme(colorMode: .truecolor, unicode: true, overrides: overrides)
        XCTAssertEqual(truecolor.likedHeart.foreground, .rgb(RGB(0, 200, 0)))
        XCTAssertEqual(truecolor.bar.background, .indexed(17))
        XCTAssertEqual(truecolor.activeTab.background, .indexed(208))
        XCTAssertEqual(truecolor.accent.foreground, .indexed(208))
        let sixteen = Theme(colorMode: .palette16, unicode: true, overrides: overrides)
        XCTAssertEqual(sixteen.likedHeart.foreground, .indexed(Palette.nearest16(RGB(0, 200, 0))))
        XCTAssertEqual(sixteen.bar.background, .indexed(Palette.nearest16(Palette.xterm256[17])))
        XCTAssertEqual(Theme(colorMode: .none, unicode: true, overrides: overrides).likedHeart.foreground, .standard)
    }

    func test_themeColor_parsesHexAndPaletteNumbers() {
        XCTAssertEqual(ThemeColor("#1E90ff"), .rgb(RGB(30, 144, 255)))
        XCTAssertEqual(ThemeColor("33"), .index(33))
        XCTAssertNil(ThemeColor("blue"))
        XCTAssertNil(ThemeColor("256"))
        XCTAssertNil(ThemeColor("#12345"))
    }
}
