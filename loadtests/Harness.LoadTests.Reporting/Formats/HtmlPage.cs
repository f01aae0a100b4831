using System.Text;
using System.Text.Json;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>
/// The shell every HTML page of the harness shares, the report, the comparison and the runner's <c>--live</c> page:
/// the head with the report's style sheet, then, at the end of the body, the page's data as inline JSON, Chart.js and
/// the page's scripts, all inlined, so that no page needs the network. Each page writes its own body between the two.
/// </summary>
internal static class HtmlPage
{
    /// <summary>The chart library inlined into every page, as recorded in web/package.json.</summary>
    public const string ChartLibrary = "Chart.js 4.6.1 (MIT)";

    // The default encoder escapes <, >, & and quotes, so the JSON cannot close its <script> element.
    private static readonly JsonSerializerOptions JsonOptions = new() { PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    private static readonly Lazy<string> ChartScript = new(() => ScriptSafe(StripSourceMap(Resource("chart.js"))));
    private static readonly Lazy<string> StyleSheet = new(() => Resource("report.css"));

    /// <summary>
    /// <c>&lt;!DOCTYPE html&gt;</c> to the opening <c>&lt;body&gt;</c>: the title (already HTML: each page escapes its own
    /// parts) and the report's style sheet.
    /// </summary>
    /// <param name="bodyAttributes">Attributes of the body element, with their leading space (the live page's state).</param>
    public static void AppendHead(StringBuilder html, string titleHtml, string bodyAttributes = "")
    {
        ArgumentNullException.ThrowIfNull(html);
        html.AppendLine("<!DOCTYPE html>");
        html.AppendLine("<html lang=\"en\">");
        html.AppendLine("<head>");
        html.AppendLine("<meta charset=\"utf-8\">");
        html.AppendLine("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
        html.Append("<title>").Append(titleHtml).AppendLine("</title>");
        html.Append("<style>").Append(StyleSheet.Value).AppendLine("</style>");
        html.AppendLine("</head>");
        html.Append("<body").Append(bodyAttributes).AppendLine(">");
    }

    /// <summary>The page's data (read by web/charts/base.js as <c>#report-data</c>), Chart.js, then each script in its own element, and the closing tags.</summary>
    /// <param name="dataJson">The data as JSON (<see cref="Json"/>); <c>{}</c> for a page that fetches its own.</param>
    public static void AppendScripts(StringBuilder html, string dataJson, params string[] scripts)
    {
        ArgumentNullException.ThrowIfNull(html);
        html.Append("<script type=\"application/json\" id=\"report-data\">").Append(dataJson).AppendLine("</script>");
        html.Append("<script>").Append(ChartScript.Value).AppendLine("</script>");
        foreach (var script in scripts)
        {
            html.Append("<script>").Append(script).AppendLine("</script>");
        }

        html.AppendLine("</body>");
        html.AppendLine("</html>");
    }

    /// <summary>Some of web/charts/*.js, in the order given, ready to inline: each page draws with its own set.</summary>
    public static string ChartScripts(params string[] names) => ScriptSafe(string.Join('\n', names.Select(name => Resource("charts." + name))));

    /// <summary>A page of the runner's own (<c>--live</c>) draws with the report's shared chart helpers (web/charts/base.js, <c>window.HarnessReport</c>).</summary>
    public static string HelperScript => ChartScripts("base.js");

    /// <summary>The page's data as inline JSON: the serializer escapes &lt;, &gt; and &amp;, so it cannot end its element.</summary>
    internal static string Json<T>(T model) => JsonSerializer.Serialize(model, JsonOptions);

    private static string Resource(string name)
    {
        var assembly = typeof(HtmlPage).Assembly;
        using var stream = assembly.GetManifestResourceStream($"Harness.LoadTests.Reporting.{name}")
            ?? throw new InvalidOperationException($"The report resource '{name}' is missing from {assembly.GetName().Name}; rebuild the project (it runs npm ci).");
        using var reader = new StreamReader(stream, Encoding.UTF8);
        return reader.ReadToEnd();
    }

    // The map file is not shipped, and a browser's developer tools would try to fetch it.
    private static string StripSourceMap(string script) =>
        string.Join('\n', script.Split('\n').Where(line => !line.StartsWith("//# sourceMappingURL=", StringComparison.Ordinal)));

    // "</script" inside inline code would end the element early; "<\/" means the same in JavaScript.
    private static string ScriptSafe(string script) => script.Replace("</script", "<\\/script", StringComparison.OrdinalIgnoreCase);
}
