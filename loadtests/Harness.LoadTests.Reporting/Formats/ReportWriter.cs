using System.Text;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>The files a report consists of, as written.</summary>
/// <param name="Html">index.html: the self-contained comparison report.</param>
/// <param name="Markdown">summary.md: the tables.</param>
/// <param name="Csv">csv/&lt;series id&gt;.csv, one per series, in the manifest's order.</param>
public sealed record ReportFiles(string Html, string Markdown, IReadOnlyList<string> Csv)
{
    public IEnumerable<string> All => [Html, Markdown, .. Csv];
}

/// <summary>Writes a run's report into its run directory.</summary>
public static class ReportWriter
{
    public const string HtmlFileName = "index.html";
    public const string MarkdownFileName = "summary.md";
    public const string CsvDirectoryName = "csv";

    private static readonly UTF8Encoding Utf8NoBom = new(encoderShouldEmitUTF8Identifier: false);

    /// <summary>
    /// Writes <c>index.html</c>, <c>summary.md</c> and <c>csv/&lt;series&gt;.csv</c> under <paramref name="directory"/>
    /// (created if missing; existing report files are replaced).
    /// </summary>
    /// <param name="run">The run, as <c>RawRunReader.Read</c> gave it.</param>
    /// <param name="directory">Where to write (the run folder).</param>
    /// <param name="results">Threshold results, shown in the HTML and Markdown when given.</param>
    /// <param name="warnings">What the reader tolerated (<c>RawRunReader.Read(dir, out warnings)</c>), shown at the top of the HTML and Markdown.</param>
    public static ReportFiles WriteAll(
        RunData run, string directory, IReadOnlyList<ThresholdResult>? results = null, IReadOnlyList<string>? warnings = null)
    {
        ArgumentNullException.ThrowIfNull(run);
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
        File.WriteAllText(markdown, MarkdownReport.Render(run, results, warnings), Utf8NoBom);

        var html = Path.Combine(runDirectory, HtmlFileName);
        File.WriteAllText(html, HtmlReport.Render(run, results, warnings), Utf8NoBom);
        return new ReportFiles(html, markdown, csv);
    }
}
