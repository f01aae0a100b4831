using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>The figures the two stacks are compared on.</summary>
internal enum StackFigure
{
    Mean,
    P99,
    RequestsPerSecond,

    /// <summary>The service's CPU time per request (<see cref="SeriesSummary.CpuMsPerRequest"/>).</summary>
    CpuPerRequest,

    /// <summary>The service's memory per call in flight (<see cref="SeriesSummary.MemoryKbPerCallInFlight"/>).</summary>
    MemoryPerCall,
}

/// <summary>How each <see cref="StackFigure"/> is read from a series, named, and which way is better.</summary>
internal static class StackFigures
{
    public static IReadOnlyList<StackFigure> All { get; } = Enum.GetValues<StackFigure>();

    /// <summary>The series' figure; null when not measured.</summary>
    public static double? Read(SeriesSummary summary, StackFigure figure)
    {
        ArgumentNullException.ThrowIfNull(summary);
        return figure switch
        {
            StackFigure.Mean => ModeFigures.Read(summary, ModeFigure.Mean),
            StackFigure.P99 => ModeFigures.Read(summary, ModeFigure.P99),
            // A series that completed nothing has no throughput to divide by.
            StackFigure.RequestsPerSecond => summary.Requests > 0 ? summary.RequestsPerSecond : null,
            StackFigure.CpuPerRequest => summary.CpuMsPerRequest,
            _ => summary.MemoryKbPerCallInFlight,
        };
    }

    /// <summary>Higher is better for req/s only.</summary>
    public static bool LowerIsBetter(StackFigure figure) => figure != StackFigure.RequestsPerSecond;

    public static string Name(StackFigure figure) => figure switch
    {
        StackFigure.Mean => "mean",
        StackFigure.P99 => "p99",
        StackFigure.RequestsPerSecond => "req/s",
        StackFigure.CpuPerRequest => "CPU ms/req",
        _ => "KB/call in flight",
    };
}

/// <summary>
/// One stack's figure ÷ the other's: the ratio of their geometric means over the repetitions, with the interval of
/// a <see cref="RatioTest"/> (paired by round: in one round both stacks ran against the same mode's services) when
/// either stack was repeated. Mean, p99 and req/s carry a verdict judged with the report's family
/// (<see cref="ReportVerdicts"/>); the other figures show their 95 % interval uncoloured.
/// </summary>
/// <param name="Test">The test behind the interval; null without one.</param>
internal sealed record StackRatio(double? Ratio, RatioEstimate? Estimate, RatioTest? Test, RatioVerdict Verdict)
{
    public const double Confidence = ModeRatio.Confidence;

    public static StackRatio Of(IReadOnlyList<Observation> value, IReadOnlyList<Observation> baseline)
    {
        ArgumentNullException.ThrowIfNull(value);
        ArgumentNullException.ThrowIfNull(baseline);
        var ratio = ModeRatio.Of(value, baseline);
        return ratio.Test is { } test
            ? new StackRatio(ratio.Median, test.Interval(Confidence), test, RatioVerdict.NotJudged)
            : new StackRatio(ratio.Median, null, null, ratio.Verdict);
    }

    /// <summary>This ratio as its family judged it.</summary>
    public StackRatio Judged(FamilyVerdict verdict)
    {
        ArgumentNullException.ThrowIfNull(verdict);
        return this with { Ratio = verdict.Interval.Ratio, Estimate = verdict.Interval, Verdict = verdict.Verdict };
    }

    /// <summary>The same ratio as a <see cref="ModeRatio"/>, which the formats write.</summary>
    public ModeRatio AsModeRatio() => Estimate is { } e
        ? new ModeRatio(e.Ratio, e.Low, e.High, true, Verdict) { Test = Test, Level = e.Confidence }
        : new ModeRatio(Ratio, Ratio, Ratio, false, Verdict);

    /// <summary>The ratio with its interval, or what it lacks: <c>0.82× (0.74–0.91)</c>, <c>1.10× single run</c>.</summary>
    public string Text => Verdict switch
    {
        RatioVerdict.Unknown => Format.Missing,
        RatioVerdict.SingleRun => $"{Format.Ratio(Ratio)} single run",
        RatioVerdict.NoInterval => $"{Format.Ratio(Ratio)} no interval",
        _ => $"{Format.Ratio(Ratio)} ({Bound(Estimate!.Low)}–{Bound(Estimate.High)})",
    };

    private static string Bound(double ratio) => Format.Ratio(ratio).TrimEnd('×');
}

/// <summary>
/// One operation in one mode as both stacks ran it: their series (a repeated mode's repetitions) and
/// <see cref="StackComparison.Compared"/> ÷ <see cref="StackComparison.Baseline"/> on every <see cref="StackFigure"/>.
/// </summary>
internal sealed record StackPair(string Operation, string Mode, IReadOnlyList<SeriesSummary> Grpc, IReadOnlyList<SeriesSummary> Soap, IReadOnlyDictionary<StackFigure, StackRatio> Ratios)
{
    public string Title => $"{Operation} · {Mode}";

    public bool HasRepetitions => Grpc.Count > 1 || Soap.Count > 1;
}

/// <summary>
/// gRPC against SOAP: for each operation × mode that ran on both stacks, gRPC's figures ÷ SOAP's with the
/// repetitions' pooled interval (docs/report.md, "gRPC against SOAP").
/// </summary>
internal static class StackComparison
{
    public const string Baseline = "soap";
    public const string Compared = "grpc";

    /// <summary>The stacks a stack ratio can name.</summary>
    public static IReadOnlyList<string> Stacks { get; } = [Baseline, Compared];

    /// <summary>Operations in the order they first appear, modes in the run's mode order.</summary>
    public static IReadOnlyList<StackPair> Build(RunManifest manifest, IReadOnlyList<SeriesSummary> summaries)
    {
        ArgumentNullException.ThrowIfNull(manifest);
        ArgumentNullException.ThrowIfNull(summaries);
        var pairs = new List<StackPair>();
        foreach (var (operation, mode, byStack) in Units(manifest.Modes, summaries))
        {
            if (byStack.TryGetValue(Compared, out var grpc) && byStack.TryGetValue(Baseline, out var soap))
            {
                var ratios = StackFigures.All.ToDictionary(f => f, f => Between(grpc, soap, s => StackFigures.Read(s, f)));
                pairs.Add(new StackPair(operation, mode, grpc, soap, ratios));
            }
        }

        return pairs;
    }

    /// <summary><paramref name="value"/>'s figure ÷ <paramref name="baseline"/>'s over the series that measured it.</summary>
    public static StackRatio Between(IReadOnlyList<SeriesSummary> value, IReadOnlyList<SeriesSummary> baseline, Func<SeriesSummary, double?> read)
    {
        ArgumentNullException.ThrowIfNull(value);
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(read);
        return StackRatio.Of(Observations(value, read), Observations(baseline, read));
    }

    // Paired by what both stacks shared: the round, and in an A/A run the listing within it (both stacks of one listing
    // ran against the same services, one after the other).
    private static List<Observation> Observations(IReadOnlyList<SeriesSummary> series, Func<SeriesSummary, double?> read) =>
        [.. series.Select(s => (Key: s.Series.Round > 0 && s.Series.Slot > 0 ? (s.Series.Round * 1000) + s.Series.Slot : s.Series.Round, Value: read(s)))
            .Where(o => o.Value is not null).Select(o => new Observation(o.Key, o.Value!.Value))];

    /// <summary>
    /// The run's series by operation × mode and, within that, by stack (lower case): a repeated mode's repetitions
    /// together. A stack with two unnumbered series of one operation and mode (S3's two parallelisms) is left out,
    /// since which of them to compare is not for the report to guess.
    /// </summary>
    /// <param name="modes">The order of the modes (the run's); a mode not in it goes last.</param>
    /// <param name="summaries">The run's series.</param>
    public static IReadOnlyList<(string Operation, string Mode, IReadOnlyDictionary<string, IReadOnlyList<SeriesSummary>> ByStack)> Units(
        IReadOnlyList<string> modes, IReadOnlyList<SeriesSummary> summaries)
    {
        ArgumentNullException.ThrowIfNull(modes);
        ArgumentNullException.ThrowIfNull(summaries);
        var operations = summaries.Select(s => s.Series.Operation).Distinct(StringComparer.OrdinalIgnoreCase).ToList();
        return [.. summaries
            .GroupBy(s => (Operation: s.Series.Operation.ToLowerInvariant(), Mode: s.Series.Mode.ToLowerInvariant()))
            .OrderBy(g => operations.FindIndex(o => string.Equals(o, g.Key.Operation, StringComparison.OrdinalIgnoreCase)))
            .ThenBy(g => ModeComparison.ModeOrder(modes, g.Key.Mode))
            .Select(g => (g.First().Series.Operation, g.First().Series.Mode, (IReadOnlyDictionary<string, IReadOnlyList<SeriesSummary>>)g
                .GroupBy(s => s.Series.Stack.ToLowerInvariant())
                .Where(s => s.Count() == 1 || s.All(r => r.Series.Repetition > 0))
                .ToDictionary(s => s.Key, s => (IReadOnlyList<SeriesSummary>)[.. s.OrderBy(r => r.Series.Repetition)], StringComparer.Ordinal)))];
    }
}
