import Foundation

/// HTTP dates (RFC 9110 §5.6.7): read in the three forms a recipient must accept, written as IMF-fixdate.
///
/// Hand-written rather than through `DateFormatter`: the forms are fixed, in English and GMT, and a parser that
/// depends on neither locale nor ICU gives the same answer on every platform. Anything else is nil, never a trap.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday

    /// Reads `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT` or `Sun Nov  6 08:49:37 1994`.
    package static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 64 else { return nil }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        switch words.count {
        case 6 where words[0].hasSuffix(",") && words[5] == "GMT":
            // IMF-fixdate: day-name "," SP day SP month SP year SP time SP "GMT"
            return date(year: words[3], month: words[2], day: words[1], time: words[4], twoDigitYear: false)
        case 4 where words[0].hasSuffix(",") && words[3] == "GMT":
            // RFC 850: day-name "," SP day "-" month "-" 2DIGIT SP time SP "GMT"
            let parts = words[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else { return nil }
            return date(year: parts[2], month: parts[1], day: parts[0], time: words[2], twoDigitYear: true)
        case 5:
            // asctime: day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time SP year
            return date(year: words[4], month: words[1], day: words[2], time: words[3], twoDigitYear: false)
        default:
            return nil
        }
    }

    /// Writes `date` as IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), whole seconds, clamped to years 1–9999.
    package static func format(_ date: Date) -> String {
        let limit = 253_402_300_799.0  // 9999-12-31T23:59:59Z
        let seconds = Int64(min(max(date.timeIntervalSince1970.rounded(.down), -62_135_596_800), limit))
        let dayNumber = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - dayNumber * 86_400
        let (year, month, day) = civil(fromDays: dayNumber)
        let weekday = days[Int(((dayNumber % 7) + 7) % 7)]
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(weekday), \(two(day)) \(months[Int(month) - 1].capitalized) \(yearText) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }

    private static func date(year: String, month: String, day: String, time: String, twoDigitYear: Bool) -> Date? {
        guard let monthIndex = months.firstIndex(of: month.lowercased()),
            let day = number(day, digits: 1...2), (1...31).contains(day),
            var year = number(year, digits: twoDigitYear ? 2...2 : 4...4)
        else { return nil }
        if twoDigitYear {
            // RFC 9110: a two-digit year more than 50 years in the future is the most recent past year so ending.
            year += year < 70 ? 2000 : 1900
        }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard clock.count == 3, let hour = number(clock[0], digits: 2...2),
            let minute = number(clock[1], digits: 2...2),
            let second = number(clock[2], digits: 2...2), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysFromCivil(year: Int64(year), month: Int64(monthIndex + 1), day: Int64(day))
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func number(_ text: String, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(text)
    }

    // Howard Hinnant's days-from-civil and its inverse, on the proleptic Gregorian calendar.
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
