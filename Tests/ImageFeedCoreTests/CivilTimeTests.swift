import Foundation
@testable import ImageFeedCore
import TestSupport
import XCTest

/// Dates by arithmetic give what Foundation's ICU formatters give, for every day from 1600 to 2400 and for
/// moments spread over them, in UTC and in the local time zone.
final class CivilTimeTests: XCTestCase {
    private var utcCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }

    func test_everyDayFrom1600To2400_isTheGregorianCalendarsDay() {
        let calendar = utcCalendar
        let first = CivilTime.daysFromEpoch(year: 1600, month: 1, day: 1)
        let last = CivilTime.daysFromEpoch(year: 2400, month: 12, day: 31)
        XCTAssertEqual(last - first + 1, 2 * 146_097 + 366, "1600 to 2399 is twice 400 years of 146,097 days; 2400 is a leap year")
        for days in stride(from: first, through: last, by: 1) {
            let date = Date(timeIntervalSince1970: Double(days) * 86_400)
            let expected = calendar.dateComponents([.year, .month, .day], from: date)
            let civil = CivilTime.civil(daysFromEpoch: days)
            guard civil.year == expected.year, civil.month == expected.month, civil.day == expected.day,
                  CivilTime.daysFromEpoch(year: civil.year, month: civil.month, day: civil.day) == days else {
                return XCTFail("day \(days): \(civil), Foundation says \(expected)")
            }
        }
    }

    func test_moments_readAndWrittenAsFoundationDoes() {
        let iso = ISO8601DateFormatter()
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.timeZone = TimeZone(secondsFromGMT: 0)
        day.dateFormat = "d MMM yyyy"
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.dateFormat = "d MMM HH:mm|HH:mm:ss|d MMM yyyy"
        var generator = SeededGenerator(seed: 40)
        for _ in 0..<20_000 {
            // 1900 to 2200, to the second.
            let seconds = Double(Int(generator.next() % 9_467_280_000) - 2_208_988_800)
            let date = Date(timeIntervalSince1970: seconds)
            let text = iso.string(from: date)
            XCTAssertEqual(CivilTime.internet(date), text)
            XCTAssertEqual(CivilTime.internetDate(text), date, text)
            XCTAssertEqual(CivilTime.day(date), day.string(from: date))
            let expected = local.string(from: date).split(separator: "|").map(String.init)
            XCTAssertEqual([CivilTime.localDayAndTime(date), CivilTime.localClock(date, seconds: true), CivilTime.localDay(date)],
                           expected, text)
            XCTAssertEqual(CivilTime.startOfLocalDay(date), Calendar.current.startOfDay(for: date), text)
        }
    }

    /// The local forms in zones with summer time and half-hour offsets, the C library's zone set as a user's `TZ`.
    func test_localForms_inZonesWithSummerTime_areFoundations() throws {
        let before = ProcessInfo.processInfo.environment["TZ"]
        defer {
            if let before { setenv("TZ", before, 1) } else { unsetenv("TZ") }
            tzset()
        }
        for zone in ["America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"] {
            let timeZone = try XCTUnwrap(TimeZone(identifier: zone))
            setenv("TZ", zone, 1)
            tzset()
            let local = DateFormatter()
            local.locale = Locale(identifier: "en_US_POSIX")
            local.timeZone = timeZone
            local.dateFormat = "d MMM HH:mm|HH:mm:ss|d MMM yyyy"
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            var generator = SeededGenerator(seed: 41)
            for _ in 0..<5_000 {
                // 1980 to 2040.
                let date = Date(timeIntervalSince1970: Double(315_532_800 + Int(generator.next() % 1_893_456_000)))
                XCTAssertEqual([CivilTime.localDayAndTime(date), CivilTime.localClock(date, seconds: true), CivilTime.localDay(date)],
                               local.string(from: date).split(separator: "|").map(String.init), "\(zone) \(date)")
                XCTAssertEqual(CivilTime.startOfLocalDay(date), calendar.startOfDay(for: date), "\(zone) \(date)")
            }
        }
    }

    func test_internetDates_inEveryFormServicesSend_andNothingElse() {
        XCTAssertEqual(CivilTime.internetDate("2016-05-03T11:00:28-04:00"), Date(timeIntervalSince1970: 1_462_287_628))
        XCTAssertEqual(CivilTime.internetDate("2016-05-03T15:00:28Z"), Date(timeIntervalSince1970: 1_462_287_628))
        XCTAssertEqual(CivilTime.internetDate("2016-05-03T20:30:28+0530"), Date(timeIntervalSince1970: 1_462_287_628))
        XCTAssertEqual(CivilTime.internetDate("2024-02-29T23:59:59.250Z")?.timeIntervalSince1970 ?? 0, 1_709_251_199.25,
                       accuracy: 0.0001)
        XCTAssertEqual(CivilTime.internet(Date(timeIntervalSince1970: 1_709_251_199.25), milliseconds: true),
                       "2024-02-29T23:59:59.250Z")
        for refused in ["", "2016-05-03", "2016-05-03T15:00:28", "99999-01-01T00:00:00Z", "2023-02-29T00:00:00Z",
                        "2016-13-03T15:00:28Z", "2016-05-03T24:00:00Z", "2016-05-03T15:60:00Z", "2016-05-03T15:00:28.Z",
                        "2016-05-03T15:00:28Zjunk", "2016-05-03T15:00:28+25:00", "２016-05-03T15:00:28Z", "-016-05-03T15:00:28Z"] {
            XCTAssertNil(CivilTime.internetDate(refused), refused)
        }
    }

    /// A server's reset time of 1e300 seconds, infinity or not a number is written as a date, never a crash.
    func test_absurdMoments_areWrittenAsTheCalendarsEnds() {
        let end = Date(timeIntervalSince1970: 1e300)
        XCTAssertEqual(CivilTime.internet(end), "9999-12-31T23:59:59Z")
        XCTAssertEqual(CivilTime.internet(Date(timeIntervalSince1970: -.infinity)), "-6060-01-02T00:00:01Z")
        XCTAssertEqual(CivilTime.internet(Date(timeIntervalSince1970: .nan)), "1970-01-01T00:00:00Z")
        for date in [end, Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: -1e300), .distantFuture, .distantPast,
                     Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: Double(Int64.max))] {
            XCTAssertFalse(CivilTime.localClock(date).isEmpty)
            XCTAssertFalse(CivilTime.localDayAndTime(date).isEmpty)
            _ = CivilTime.startOfLocalDay(date)
            XCTAssertTrue(ServiceError.rateLimited(limit: 50, resetsAt: date).message.hasPrefix("Rate limited until"))
        }
    }

    func test_counts_areGroupedInThrees() {
        XCTAssertEqual([0, 7, 999, 1_000, 12_345, 1_234_567, -4_200].map(Counts.grouped),
                       ["0", "7", "999", "1,000", "12,345", "1,234,567", "-4,200"])
        XCTAssertEqual(Counts.grouped(Int.min), "-9,223,372,036,854,775,808")
    }
}
