using System.Globalization;

namespace Harness.LoadTests.Recording;

/// <summary>
/// Reads the samples of a Prometheus text exposition (a /metrics page) into <c>name</c> or <c>name{labels}</c> →
/// value, the labels kept exactly as written (order, quoting, escapes) so a key is stable from scrape to scrape.
/// </summary>
public static class PrometheusTextParser
{
    public static IReadOnlyDictionary<string, double> Parse(string text) => Parse(text, out _);

    /// <param name="text">The page.</param>
    /// <param name="malformedLines">
    /// Lines skipped because they are not a sample: a bad name, unclosed labels, a value that is not a number, a
    /// timestamp that is not an integer, text after the timestamp, or a key already seen (the first value is kept).
    /// Blank lines and <c>#</c> lines (HELP, TYPE, comments) are not counted.
    /// </param>
    public static IReadOnlyDictionary<string, double> Parse(string text, out int malformedLines)
    {
        ArgumentNullException.ThrowIfNull(text);
        var samples = new Dictionary<string, double>(StringComparer.Ordinal);
        malformedLines = 0;
        foreach (var rawLine in text.AsSpan().EnumerateLines())
        {
            var line = rawLine.Trim();
            if (line.IsEmpty || line[0] == '#')
            {
                continue;
            }

            if (TryParseSample(line, out var key, out var value) && samples.TryAdd(key, value))
            {
                continue;
            }

            malformedLines++;
        }

        return samples;
    }

    private static bool TryParseSample(ReadOnlySpan<char> line, out string key, out double value)
    {
        key = "";
        value = 0;
        var nameLength = NameLength(line, allowColon: true);
        if (nameLength == 0)
        {
            return false;
        }

        // Blanks may separate the name from its labels; they are not part of the key.
        var rest = line[nameLength..];
        var labelsLength = 0;
        if (rest.TrimStart(" \t") is ['{', ..] labelled)
        {
            rest = labelled;
            labelsLength = LabelsLength(rest);
            if (labelsLength == 0)
            {
                return false;
            }
        }

        var labels = rest[..labelsLength];
        var afterLabels = rest[labelsLength..];
        if (afterLabels.IsEmpty || afterLabels[0] is not (' ' or '\t'))
        {
            return false;
        }

        // The value, then an optional timestamp (milliseconds, ignored), and nothing else.
        var fieldsText = afterLabels.Trim();
        Span<Range> fields = stackalloc Range[3];
        var count = fieldsText.SplitAny(fields, " \t", StringSplitOptions.RemoveEmptyEntries);
        if (count is 0 or 3 || !TryParseValue(fieldsText[fields[0]], out value)
            || (count == 2 && !long.TryParse(fieldsText[fields[1]], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out _)))
        {
            return false;
        }

        key = string.Concat(line[..nameLength], labels);
        return true;
    }

    // Go's strconv.ParseFloat, which Prometheus uses, spells the specials NaN, Inf, +Inf, -Inf in any case.
    private static bool TryParseValue(ReadOnlySpan<char> text, out double value)
    {
        if (text.Equals("NaN", StringComparison.OrdinalIgnoreCase))
        {
            value = double.NaN;
            return true;
        }

        if (text.Equals("+Inf", StringComparison.OrdinalIgnoreCase) || text.Equals("Inf", StringComparison.OrdinalIgnoreCase))
        {
            value = double.PositiveInfinity;
            return true;
        }

        if (text.Equals("-Inf", StringComparison.OrdinalIgnoreCase))
        {
            value = double.NegativeInfinity;
            return true;
        }

        const NumberStyles Number = NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint | NumberStyles.AllowExponent;
        return double.TryParse(text, Number, CultureInfo.InvariantCulture, out value);
    }

    /// <summary>Length of a metric name (<c>[a-zA-Z_:][a-zA-Z0-9_:]*</c>) or label name (no colon) at the start, or 0.</summary>
    private static int NameLength(ReadOnlySpan<char> text, bool allowColon)
    {
        var length = 0;
        while (length < text.Length
            && (char.IsAsciiLetter(text[length]) || text[length] == '_' || (allowColon && text[length] == ':')
                || (length > 0 && char.IsAsciiDigit(text[length]))))
        {
            length++;
        }

        return length;
    }

    /// <summary>Length of <c>{name="value",...}</c> at the start, closing brace included; 0 if malformed.</summary>
    private static int LabelsLength(ReadOnlySpan<char> text)
    {
        var position = 1;
        while (true)
        {
            position = SkipBlanks(text, position);
            if (position < text.Length && text[position] == '}')
            {
                return position + 1;
            }

            var nameLength = NameLength(text[position..], allowColon: false);
            if (nameLength == 0)
            {
                return 0;
            }

            position = SkipBlanks(text, position + nameLength);
            if (position >= text.Length || text[position] != '=')
            {
                return 0;
            }

            position = SkipBlanks(text, position + 1);
            if (position >= text.Length || text[position] != '"')
            {
                return 0;
            }

            // The quoted value: a backslash escapes the next character, so \" and \\ do not end it.
            for (position++; position < text.Length && text[position] != '"'; position++)
            {
                if (text[position] == '\\')
                {
                    position++;
                }
            }

            if (position >= text.Length)
            {
                return 0;
            }

            position = SkipBlanks(text, position + 1);
            if (position < text.Length && text[position] == ',')
            {
                position++;
            }
            else if (position >= text.Length || text[position] != '}')
            {
                return 0;
            }
        }
    }

    private static int SkipBlanks(ReadOnlySpan<char> text, int position)
    {
        while (position < text.Length && text[position] is ' ' or '\t')
        {
            position++;
        }

        return position;
    }
}
