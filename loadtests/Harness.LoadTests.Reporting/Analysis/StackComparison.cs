using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>The figures the two stacks are compared on.</summary>
public enum StackFigure
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
public static class StackFigures
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

/// <summary>What a stack ratio says.</summary>
public enum StackVerdict
{
    /// <summary>The interval excludes 1 and the ratio is better by more than 5 %.</summary>
    Better,

    /// <summary>The interval excludes 1 and the ratio is worse by more than 5 %.</summary>
    Worse,

    /// <summary>The interval excludes 1, but the ratio is within 5 % of 1.</summary>
    Same,

    /// <summary>The interval holds 1: the run cannot tell the stacks apart.</summary>
    WithinNoise,

    /// <summary>Neither stack was repeated: a ratio of one process to one process, with no interval and no colour.</summary>
    SingleRun,

    /// <summary>Repeated, but no interval could be computed (a figure of 0): not coloured.</summary>
    NoInterval,

    /// <summary>Not measured on one of the stacks.</summary>
    Unknown,
}

/// <summary>
/// One stack's figure ÷ the other's: the ratio of their geometric means over the repetitions, with the pooled log-t
/// interval of <see cref="RepetitionNoise"/> when either stack was repeated.
/// </summary>
/// <param name="Noise">The figure's noise pooled over both stacks' repetitions; null without repetitions.</param>
public sealed record StackRatio(double? Ratio, RatioEstimate? Estimate, RepetitionNoise? Noise, StackVerdict Verdict)
{
    public const double Confidence = 0.95;

    public static StackRatio Of(IReadOnlyList<double> value, IReadOnlyList<double> baseline, bool lowerIsBetter)
    {
        ArgumentNullException.ThrowIfNull(value);
        ArgumentNullException.ThrowIfNull(baseline);
        if (value.Count == 0 || baseline.Count == 0)
        {
            return new StackRatio(null, null, null, StackVerdict.Unknown);
        }

        var noise = RepetitionNoise.Pool([value, baseline]);
        if (noise?.Ratio(value, baseline, Confidence) is { } estimate)
        {
            return new StackRatio(estimate.Ratio, estimate, noise, VerdictOf(estimate, lowerIsBetter));
        }

        var median = Analysis.Ratio.Of(Spread.MedianOf([.. value.Order()]), Spread.MedianOf([.. baseline.Order()]));
        var single = value.Count == 1 && baseline.Count == 1;
        return new StackRatio(median, null, noise, median is null ? StackVerdict.Unknown : single ? StackVerdict.SingleRun : StackVerdict.NoInterval);
    }

    /// <summary>The ratio with its interval, or what it lacks: <c>0.82× (0.74–0.91)</c>, <c>1.10× single run</c>.</summary>
    public string Text => Verdict switch
    {
        StackVerdict.Unknown => Format.Missing,
        StackVerdict.SingleRun => $"{Format.Ratio(Ratio)} single run",
        StackVerdict.NoInterval => $"{Format.Ratio(Ratio)} no interval",
        _ => $"{Format.Ratio(Ratio)} ({Bound(Estimate!.Low)}–{Bound(Estimate.High)})",
    };

    private static StackVerdict VerdictOf(RatioEstimate estimate, bool lowerIsBetter)
    {
        if (!estimate.ExcludesOne)
        {
            return StackVerdict.WithinNoise;
        }

        var r = estimate.Ratio;
        var better = lowerIsBetter ? r < 1 - ModeRatio.Tolerance : r > 1 + ModeRatio.Tolerance;
        var worse = lowerIsBetter ? r > 1 + ModeRatio.Tolerance : r < 1 - ModeRatio.Tolerance;
        return better ? StackVerdict.Better : worse ? StackVerdict.Worse : StackVerdict.Same;
    }

    private static string Bound(double ratio) => Format.Ratio(ratio).TrimEnd('×');
}

/// <summary>
/// One operation in one mode as both stacks ran it: their series (a repeated mode's repetitions) and
/// <see cref="StackComparison.Compared"/> ÷ <see cref="StackComparison.Baseline"/> on every <see cref="StackFigure"/>.
/// </summary>
public sealed record StackPair(string Operation, string Mode, IReadOnlyList<SeriesSummary> Grpc, IReadOnlyList<SeriesSummary> Soap, IReadOnlyDictionary<StackFigure, StackRatio> Ratios)
{
    public string Title => $"{Operation} · {Mode}";

    public bool HasRepetitions => Grpc.Count > 1 || Soap.Count > 1;
}

/// <summary>
/// gRPC against SOAP: for each operation × mode that ran on both stacks, gRPC's figures ÷ SOAP's with the
/// repetitions' pooled interval (docs/report.md, "gRPC against SOAP").
/// </summary>
public static class StackComparison
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
                var ratios = StackFigures.All.ToDictionary(f => f, f => Between(grpc, soap, s => StackFigures.Read(s, f), StackFigures.LowerIsBetter(f)));
                pairs.Add(new StackPair(operation, mode, grpc, soap, ratios));
            }
        }

        return pairs;
    }

    /// <summary><paramref name="value"/>'s figure ÷ <paramref name="baseline"/>'s over the series that measured it.</summary>
    public static StackRatio Between(IReadOnlyList<SeriesSummary> value, IReadOnlyList<SeriesSummary> baseline, Func<SeriesSummary, double?> read, bool lowerIsBetter)
    {
        ArgumentNullException.ThrowIfNull(value);
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(read);
        return StackRatio.Of([.. value.Select(read).OfType<double>()], [.. baseline.Select(read).OfType<double>()], lowerIsBetter);
    }

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
