using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>One run of a comparison: its letter (A is the baseline), id and colour on every chart.</summary>
internal sealed record ComparedRunModel(string Letter, string Id, string Color);

/// <summary>
/// The data the comparison page's script draws: per compared series, one <see cref="GroupModel"/> whose lines are the
/// runs' series (a repeated series one line per repetition, in its run's colour), on seconds since each started.
/// </summary>
internal sealed record ComparisonModel(IReadOnlyList<ComparedRunModel> Runs, IReadOnlyList<GroupModel> Groups)
{
    private static readonly string[] RunColors = ["#2f6fb3", "#e39b1b", "#1b998b", "#8f5bbf", "#d1495b", "#5c6b7a", "#3d9a3d", "#b5407f"];

    public static string LetterOf(int run) => run < 26 ? ((char)('A' + run)).ToString() : $"R{run + 1}";

    public static string ColorOf(int run) => RunColors[run % RunColors.Length];

    /// <summary>A series' label on the comparison's charts and tables: its run's letter, and its repetition (<c>B #2</c>).</summary>
    public static string LabelOf(int run, SeriesSummary summary) =>
        summary.Series.Repetition > 0 ? $"{LetterOf(run)} #{summary.Series.Repetition}" : LetterOf(run);

    public static ComparisonModel Build(MultiRunComparison comparison)
    {
        var runs = comparison.Runs.Select((r, i) => new ComparedRunModel(LetterOf(i), r.Manifest.RunId, ColorOf(i))).ToList();
        return new ComparisonModel(runs, [.. comparison.Series.Select(s => GroupOf(comparison, s))]);
    }

    private static GroupModel GroupOf(MultiRunComparison comparison, ComparedSeries compared)
    {
        var lines = new List<SeriesModel>();
        var spectra = new List<SpectrumSeriesModel>();
        var warmUps = new List<WarmUpModel>();
        for (var i = 0; i < compared.ByRun.Count; i++)
        {
            foreach (var summary in compared.ByRun[i])
            {
                var label = LabelOf(i, summary);
                var samples = SeriesSummary.TimelineOf(comparison.Runs[i], summary.Series.Id);
                lines.Add(ReportModel.BuildSeries(label, summary, samples, ColorOf(i)));
                spectra.Add(new SpectrumSeriesModel(label, ColorOf(i), SpectrumLine.Of(summary.Histogram), SpectrumLine.Of(summary.IntendedHistogram)));
                if (summary.Series.WarmUpSeconds > 0)
                {
                    warmUps.Add(new WarmUpModel(summary.Series.WarmUpSeconds, ColorOf(i), label));
                }
            }
        }

        // One grey warm-up when every line shares it, as on the run report.
        if (warmUps.Count == lines.Count && warmUps.Select(w => w.To).Distinct().Count() == 1)
        {
            warmUps = [new WarmUpModel(warmUps[0].To, "#4a4f57", null)];
        }

        return new GroupModel(
            compared.Key,
            $"{compared.Stack} · {compared.Operation} · {compared.Mode}",
            LetterOf(0),
            lines,
            [],
            [],
            [],
            warmUps,
            lines.Count == 0 ? 0 : lines.Max(l => l.Timeline.Users.Count),
            comparison.Runs[0].Manifest.Machine.ProcessorCount,
            "run A's load machine")
        {
            Spectra = spectra,
        };
    }
}
