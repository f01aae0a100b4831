using System.Text;

namespace Harness.LoadTests.Clients;

/// <summary>
/// A data feed's CSV, as RFC 4180 writes it: a header row naming the columns, fields separated by commas, records by
/// CRLF or LF; a field in double quotes may hold commas, line breaks and doubled quotes (<c>"say ""hi"""</c>).
/// Blank lines are skipped; a record with more or fewer fields than the header is refused with its line number.
/// </summary>
internal static class DataFeedCsv
{
    public static (IReadOnlyList<string> Columns, string[][] Rows) Parse(string text, string what)
    {
        string[]? header = null;
        var rows = new List<string[]>();
        var fields = new List<string>();
        var field = new StringBuilder();
        var line = 1;
        var at = 0;
        while (at < text.Length)
        {
            var recordLine = line;
            fields.Clear();
            if (text[at] is '\n' or '\r')
            {
                // A blank line: no record.
                at += text[at] == '\r' && at + 1 < text.Length && text[at + 1] == '\n' ? 2 : 1;
                line++;
                continue;
            }

            while (true)
            {
                field.Clear();
                if (at < text.Length && text[at] == '"')
                {
                    at++;
                    while (true)
                    {
                        if (at >= text.Length)
                        {
                            throw new CallSetupException($"{what}: the quoted field that starts on line {recordLine} is never closed with \".");
                        }

                        var c = text[at++];
                        if (c == '"')
                        {
                            if (at < text.Length && text[at] == '"')
                            {
                                field.Append('"');
                                at++;
                                continue;
                            }

                            break;
                        }

                        line += c == '\n' ? 1 : 0;
                        field.Append(c);
                    }

                    if (at < text.Length && text[at] is not (',' or '\r' or '\n'))
                    {
                        throw new CallSetupException($"{what}: line {line}: a quoted field must end at a comma or the line's end, not at '{text[at]}' (write a quote inside one as \"\").");
                    }
                }
                else
                {
                    while (at < text.Length && text[at] is not (',' or '\r' or '\n'))
                    {
                        field.Append(text[at++]);
                    }
                }

                fields.Add(field.ToString());
                if (at < text.Length && text[at] == ',')
                {
                    at++;
                    continue;
                }

                // The record's end: a line break (CRLF or LF) or the text's.
                at += at < text.Length && text[at] == '\r' && at + 1 < text.Length && text[at + 1] == '\n' ? 2 : at < text.Length ? 1 : 0;
                line++;
                break;
            }

            if (header is null)
            {
                header = [.. fields];
                if (header.FirstOrDefault(h => h.Length == 0 || h.Contains("}}", StringComparison.Ordinal)) is { } bad)
                {
                    throw new CallSetupException($"{what}: the header row's column '{bad}' cannot be named in a placeholder; name each column, e.g. id,name.");
                }

                if (header.GroupBy(h => h, StringComparer.Ordinal).FirstOrDefault(g => g.Count() > 1) is { } twice)
                {
                    throw new CallSetupException($"{what}: the header row names the column '{twice.Key}' twice.");
                }

                continue;
            }

            if (fields.Count != header.Length)
            {
                throw new CallSetupException($"{what}: line {recordLine} has {fields.Count} fields; the header row has {header.Length} ({string.Join(", ", header)}).");
            }

            rows.Add([.. fields]);
            DataFeed.CheckRows(rows.Count, what);
        }

        if (header is null)
        {
            throw new CallSetupException($"{what}: is empty; give a header row naming the columns, then a row per call's values.");
        }

        return rows.Count == 0
            ? throw new CallSetupException($"{what}: has a header row ({string.Join(", ", header)}) but no rows.")
            : (header, rows.ToArray());
    }
}
