import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Dates read and written by arithmetic on the Gregorian calendar, in the few fixed English forms the program
/// uses ("21 Nov 2025", "14:05", RFC 3339).
///
/// Foundation's formatters on Linux load ICU's calendars, time zones and locale data for them: the first
/// `ISO8601DateFormatter` of a process makes it some 7 MB larger (measured: an empty program 17.2 MB, with one
/// date read 24.6 MB), and the feed read one per photo. None of these forms depends on a locale, so none needs
/// ICU. The local time zone is the C library's (`TZ`, else /etc/localtime), as Foundation's is.
public enum CivilTime {
    /// A moment as a calendar shows it at some offset from UTC.
    public struct Fields: Equatable, Sendable {
        public var year: Int
        public var month: Int
        public var day: Int
        public var hour: Int
        public var minute: Int
        public var second: Int
        /// Thousandths of the second.
        public var millisecond: Int
    }

    public static let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    // MARK: Reading

    /// An RFC 3339 time as services send it: "2016-05-03T11:00:28-04:00", "2016-05-03T15:00:28Z",
    /// "2016-05-03T15:00:28.123Z" (a four-digit year; an offset "Z", "+hh:mm" or "+hhmm"). nil for anything else,
    /// a date that does not exist (30 February) included.
    public static func internetDate(_ text: String) -> Date? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip("t"),
              let hour = scanner.number(digits: 2), scanner.skip(":"),
              let minute = scanner.number(digits: 2), scanner.skip(":"),
              let second = scanner.number(digits: 2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        var fraction = 0.0
        if scanner.skip(".") {
            var scale = 0.1
            var digits = 0
            while let digit = scanner.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                digits += 1
            }
            guard digits > 0 else { return nil }
        }
        let offset: Int
        if scanner.skip("Z") || scanner.skip("z") {
            offset = 0
        } else if let sign = scanner.sign() {
            guard let hours = scanner.number(digits: 2) else { return nil }
            _ = scanner.skip(":")
            guard let minutes = scanner.number(digits: 2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard scanner.atEnd else { return nil }
        // A leap second (":60") is the first instant of the next minute, as Foundation reads it.
        let seconds = daysFromEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    // MARK: Writing

    /// The moments written: up to the end of year 9999, and as far before 1970 (years of the proleptic calendar, 0
    /// and below included: a date made from a time of day alone is in year 1, or the days before it by Foundation's
    /// Julian calendar). A date outside (a server's absurd reset time, infinity) is written as the nearest end; not a
    /// number, as 1970.
    static let writable = -253_402_300_799.0...253_402_300_799.0

    /// Seconds since 1970 within `writable`.
    private static func seconds(_ date: Date) -> Double {
        let seconds = date.timeIntervalSince1970
        return seconds.isNaN ? 0 : min(max(seconds, writable.lowerBound), writable.upperBound)
    }

    /// `date`'s calendar fields at `offset` seconds east of UTC.
    public static func fields(of date: Date, offset: Int = 0) -> Fields {
        let total = seconds(date) + Double(max(-86_400, min(86_400, offset)))
        let whole = total.rounded(.down)
        let millisecond = max(0, min(999, Int(((total - whole) * 1000).rounded(.down))))
        let seconds = Int(whole)
        let days = floorDivide(seconds, 86_400)
        let inDay = seconds - days * 86_400
        let (year, month, day) = civil(daysFromEpoch: days)
        return Fields(year: year, month: month, day: day, hour: inDay / 3600, minute: inDay % 3600 / 60,
                      second: inDay % 60, millisecond: millisecond)
    }

    /// "21 Nov 2025", the day in UTC (a photo's publication: the day the service says, wherever the user is).
    public static func day(_ date: Date) -> String {
        dayText(fields(of: date))
    }

    /// "21 Nov 2025", the day in the user's time zone.
    public static func localDay(_ date: Date) -> String {
        dayText(fields(of: date, offset: localOffset(at: date)))
    }

    /// "21 Nov 14:03", in the user's time zone: when something was saved.
    public static func localDayAndTime(_ date: Date) -> String {
        let local = fields(of: date, offset: localOffset(at: date))
        return "\(local.day) \(monthAbbreviations[local.month - 1]) \(twoDigits(local.hour)):\(twoDigits(local.minute))"
    }

    /// "14:05", or "14:05:09" with `seconds`, in the user's time zone.
    /// "08:43" for 08:42:30: the first minute at or after `date`, for a time something ends (a clock that says
    /// "until 08:42" at 08:42:45 would be wrong).
    public static func localClockUp(_ date: Date) -> String {
        localClock(Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.up) * 60))
    }

    public static func localClock(_ date: Date, seconds: Bool = false) -> String {
        let local = fields(of: date, offset: localOffset(at: date))
        let clock = "\(twoDigits(local.hour)):\(twoDigits(local.minute))"
        return seconds ? clock + ":" + twoDigits(local.second) : clock
    }

    /// "2026-11-28T11:32:30Z", or with thousandths ("2026-11-28T11:32:30.151Z"): RFC 3339 in UTC.
    public static func internet(_ date: Date, milliseconds: Bool = false) -> String {
        let utc = fields(of: date)
        let year = utc.year < 0 ? "-" + padded(-utc.year, 4) : padded(utc.year, 4)
        var text = "\(year)-\(twoDigits(utc.month))-\(twoDigits(utc.day))T"
            + "\(twoDigits(utc.hour)):\(twoDigits(utc.minute)):\(twoDigits(utc.second))"
        if milliseconds { text += "." + padded(utc.millisecond, 3) }
        return text + "Z"
    }

    /// The start of the local day `date` is in.
    public static func startOfLocalDay(_ date: Date) -> Date {
        let date = Date(timeIntervalSince1970: seconds(date))
        let offset = localOffset(at: date)
        let local = fields(of: date, offset: offset)
        let midnight = daysFromEpoch(year: local.year, month: local.month, day: local.day) * 86_400
        // The offset at midnight itself, where a change of offset happened during the day.
        let first = Double(midnight - offset)
        return Date(timeIntervalSince1970: Double(midnight - localOffset(at: Date(timeIntervalSince1970: first))))
    }

    /// Seconds east of UTC in the user's time zone at `date`.
    public static func localOffset(at date: Date) -> Int {
        var time = time_t(seconds(date).rounded(.down))
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }

    // MARK: Arithmetic

    /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar (negative before it).
    static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        // Years counted from March, so that February, with its leap day, ends the year.
        let shifted = month <= 2 ? year - 1 : year
        let era = floorDivide(shifted, 400)
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day of the proleptic Gregorian calendar `days` after 1970-01-01.
    static func civil(daysFromEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    private static func dayText(_ fields: Fields) -> String {
        "\(fields.day) \(monthAbbreviations[fields.month - 1]) \(fields.year)"
    }

    private static func twoDigits(_ value: Int) -> String {
        padded(value, 2)
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// Reads ASCII digits and marks from the front of a string's bytes.
private struct DigitScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var atEnd: Bool { index == bytes.count }

    mutating func digit() -> Int? {
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
        index += 1
        return Int(bytes[index - 1] - UInt8(ascii: "0"))
    }

    /// Exactly `digits` digits, as a number.
    mutating func number(digits: Int) -> Int? {
        var value = 0
        for _ in 0..<digits {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func skip(_ mark: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: mark) else { return false }
        index += 1
        return true
    }

    /// +1 or -1 for a sign.
    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
