/// Numbers as the screens write them: "1,234,567", in digits groups of three, whatever the locale (the rest of
/// the program's text is English too), without Foundation's number formatter and the ICU data it loads.
public enum Counts {
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return value < 0 ? "-" + text : text
    }
}
