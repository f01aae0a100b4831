using System.Text;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>A table written as aligned plain text (console), as a Markdown pipe table or as an HTML data table.</summary>
internal sealed class TextTable
{
    private readonly string[] _headers;
    private readonly bool[] _rightAligned;
    private readonly List<string[]> _rows = [];

    /// <param name="headers">Column titles; a title starting with '>' marks a right-aligned (numeric) column.</param>
    public TextTable(params string[] headers)
    {
        _rightAligned = [.. headers.Select(h => h.StartsWith('>'))];
        _headers = [.. headers.Select(h => h.TrimStart('>'))];
    }

    public int RowCount => _rows.Count;

    public void Add(params string[] cells)
    {
        if (cells.Length != _headers.Length)
        {
            throw new ArgumentException($"Expected {_headers.Length} cells, got {cells.Length}.", nameof(cells));
        }

        _rows.Add(cells);
    }

    public string ToText()
    {
        var widths = _headers.Select((h, i) => Math.Max(h.Length, _rows.Count == 0 ? 0 : _rows.Max(r => r[i].Length))).ToArray();
        var text = new StringBuilder();
        AppendTextRow(text, _headers, widths);
        text.AppendLine(string.Join("  ", widths.Select(w => new string('-', w))).TrimEnd());
        foreach (var row in _rows)
        {
            AppendTextRow(text, row, widths);
        }

        return text.ToString();
    }

    public string ToMarkdown()
    {
        var text = new StringBuilder();
        text.Append("| ").AppendJoin(" | ", _headers.Select(Escape)).AppendLine(" |");
        text.Append('|').AppendJoin('|', _rightAligned.Select(r => r ? "---:" : "---")).AppendLine("|");
        foreach (var row in _rows)
        {
            text.Append("| ").AppendJoin(" | ", row.Select(Escape)).AppendLine(" |");
        }

        return text.ToString();
    }

    /// <summary>The report's HTML data table: a right-aligned (numeric) column plain, any other <c>class="text"</c>.</summary>
    public string ToHtml()
    {
        var html = new StringBuilder("<div class=\"table-wrap\"><table class=\"data\"><thead><tr>");
        html.AppendJoin(string.Empty, _headers.Select((h, i) => HtmlCell("th", h, i))).AppendLine("</tr></thead><tbody>");
        foreach (var row in _rows)
        {
            html.Append("<tr>").AppendJoin(string.Empty, row.Select((c, i) => HtmlCell("td", c, i))).AppendLine("</tr>");
        }

        html.AppendLine("</tbody></table></div>");
        return html.ToString();
    }

    private string HtmlCell(string tag, string text, int column) =>
        $"<{tag}{(_rightAligned[column] ? string.Empty : " class=\"text\"")}>{Html.E(text)}</{tag}>";

    private void AppendTextRow(StringBuilder text, string[] cells, int[] widths)
    {
        var line = new StringBuilder();
        for (var i = 0; i < cells.Length; i++)
        {
            if (i > 0)
            {
                line.Append("  ");
            }

            line.Append(_rightAligned[i] ? cells[i].PadLeft(widths[i]) : cells[i].PadRight(widths[i]));
        }

        text.AppendLine(line.ToString().TrimEnd());
    }

    private static string Escape(string cell) => cell.Replace("|", "\\|", StringComparison.Ordinal).Replace("\n", " ", StringComparison.Ordinal);
}
