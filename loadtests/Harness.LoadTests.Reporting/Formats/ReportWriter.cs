using System.Text;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>The files a report consists of, as written.</summary>
/// <param name="Html">index.html: the self-contained comparison report.</param>
/// <param name="Markdown">summary.md: the tables.</param>
/// <param name="Csv">csv/&lt;series id&gt;.csv, one per series, in the manifest's order.</param>
internal sealed record ReportFiles(string Html, string Markdown, IReadOnlyList<string> Csv)
{
    public IEnumerable<string> All => [Html, Markdown, .. Csv];
}

/// <summary>Writes a run's report into its run directory.</summary>
internal static class ReportWriter
{
    public const string HtmlFileName = "index.html";
    public const string MarkdownFileName = "summary.md";
    public const string CsvDirectoryName = "csv";

    private static readonly UTF8Encoding Utf8NoBom = new(encoderShouldEmitUTF8Identifier: false);

    /// <summary>
    /// Writes <c>index.html</c>, <c>summary.md</c> and <c>csv/&lt;series&gt;.csv</c> under <paramref name="directory"/>
    /// (created if missing; existing report files are replaced).
    /// </summary>
    /// <param name="analysis">The run analysed once (<see cref="RunAnalysis.Of"/>), which every format writes.</param>
    /// <param name="directory">Where to write (the run folder).</param>
    public static ReportFiles WriteAll(RunAnalysis analysis, string directory)
    {
        ArgumentNullException.ThrowIfNull(analysis);
        var run = analysis.Run;
        ArgumentException.ThrowIfNullOrWhiteSpace(directory);
        var runDirectory = directory;
        Directory.CreateDirectory(runDirectory);
        var csvDirectory = Path.Combine(runDirectory, CsvDirectoryName);
        Directory.CreateDirectory(csvDirectory);

        var csv = new List<string>();
        foreach (var series in run.Manifest.Series)
        {
            var path = Path.Combine(csvDirectory, CsvReport.FileNameFor(series.Id));
            File.WriteAllText(path, CsvReport.Render(SeriesSummary.TimelineOf(run, series.Id), series.WarmUpSeconds), Utf8NoBom);
            csv.Add(path);
        }

        var markdown = Path.Combine(runDirectory, MarkdownFileName);
        File.WriteAllText(markdown, MarkdownReport.Render(analysis), Utf8NoBom);

        var html = Path.Combine(runDirectory, HtmlFileName);
        File.WriteAllText(html, HtmlReport.Render(analysis), Utf8NoBom);
        return new ReportFiles(html, markdown, csv);
    }
}
