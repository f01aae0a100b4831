using Harness.LoadTests.Common;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Formats;
using Spectre.Console;

namespace Harness.LoadTests.Running;

/// <summary>
/// Renders a run folder's report from its raw files, as <c>harness run</c> does at its end and <c>harness report</c>
/// does later: the reader's warnings, the thresholds, then <c>index.html</c>, <c>summary.md</c> and <c>csv/</c>.
/// </summary>
internal static class RunReport
{
    /// <returns><see cref="ExitCodes.Ok"/>, <see cref="ExitCodes.ThresholdBreached"/>, or <see cref="ExitCodes.OutputFailed"/> when the report could not be written.</returns>
    public static int Render(IAnsiConsole console, string runDirectory, IReadOnlyList<Threshold> thresholds)
    {
        var run = Read(console, runDirectory, out var warnings);
        var analysis = RunAnalysis.Of(run, thresholds, warnings);
        var results = analysis.Thresholds;
        ReportFiles written;
        try
        {
            written = ReportWriter.WriteAll(analysis, runDirectory);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            RemovePartialReport(runDirectory);
            var free = OutputSpace.FreeBytes(runDirectory) is { } bytes ? OutputSpace.Format(bytes) : "unknown space";
            var needed = OutputSpace.Format(OutputSpace.EstimateReport(run.Timelines.Values.Sum(t => (long)t.Count)));
            console.MarkupLineInterpolated(
                $"[red]error:[/] could not write the report in {runDirectory} ({ex.Message}); {free} free, the report needs about {needed}. The raw files (run.json, events.jsonl, series/) are complete; `harness report {runDirectory}` renders them once there is room.");
            return ExitCodes.OutputFailed;
        }

        if (StreamSection.ConsoleText(analysis.Summaries) is { } streams)
        {
            console.WriteLine(streams);
        }

        if (RuntimeSection.ConsoleText(analysis.Summaries) is { } starvation)
        {
            console.WriteLine(starvation);
        }

        if (results.Count > 0)
        {
            console.WriteLine(ThresholdText.ToText(results));
        }

        console.MarkupLineInterpolated($"[green]Report:[/] {written.Html}");
        // A check not judged (a soak too short for it) fails nothing: only a failed one breaches.
        return analysis.AnyFailed ? ExitCodes.ThresholdBreached : ExitCodes.Ok;
    }

    /// <summary>Reads a run folder and prints what the reader tolerated (a cut-off last line, a stray series file).</summary>
    public static RunData Read(IAnsiConsole console, string runDirectory) => Read(console, runDirectory, out _);

    /// <param name="warnings">What the reader tolerated, for the report's header.</param>
    public static RunData Read(IAnsiConsole console, string runDirectory, out IReadOnlyList<string> warnings)
    {
        var run = RawRunReader.Read(runDirectory, out warnings);
        foreach (var warning in warnings)
        {
            console.MarkupLineInterpolated($"[yellow]warning:[/] {warning}");
        }

        return run;
    }

    // A report cut off by a full disk would open as a broken page: leave only files that are whole.
    private static void RemovePartialReport(string runDirectory)
    {
        try
        {
            File.Delete(Path.Combine(runDirectory, ReportWriter.HtmlFileName));
            File.Delete(Path.Combine(runDirectory, ReportWriter.MarkdownFileName));
            var csv = Path.Combine(runDirectory, ReportWriter.CsvDirectoryName);
            if (Directory.Exists(csv))
            {
                Directory.Delete(csv, recursive: true);
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Removing frees space and cannot fail for lack of it; a folder that refuses is left as it is.
        }
    }
}
