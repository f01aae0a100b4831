using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>How a run repeated until settled says where it stopped and what each comparison came to (<see cref="RepetitionSettlement"/>).</summary>
internal static class SettlementText
{
    /// <summary>One sentence: how many rounds were needed, and whether every comparison settled.</summary>
    public static string Headline(RepetitionSettlement settlement)
    {
        ArgumentNullException.ThrowIfNull(settlement);
        var settled = settlement.Comparisons.Count(c => c.IsSettled);
        var rounds = $"{settlement.Rounds} of at most {settlement.Rule.MaxRounds} rounds";
        if (settlement.Comparisons.Count == 0)
        {
            return $"Repeated until settled: {rounds}, but the run had no two modes (or listings of one mode) to compare.";
        }

        var unjudgeable = settlement.Comparisons.Count(c => c.Unjudgeable);
        var without = unjudgeable == 0 ? string.Empty
            : $" {unjudgeable} could not be judged (no interval: a figure of 0, or identical in every repetition) and did not hold the run.";
        if (settlement.AllSettled && unjudgeable == 0 && settlement.Comparisons.All(c => c.Result!.Settlement == Settlement.NoLargerThanTolerance))
        {
            return $"Repeated until settled: {rounds}; no difference larger than 5 % in any of the {settlement.Comparisons.Count} comparisons (95 % together).";
        }

        return settlement.AllSettled
            ? unjudgeable == 0
                ? $"Repeated until settled: {rounds}; all {settlement.Comparisons.Count} comparisons settled (95 % together)."
                : $"Repeated until settled: {rounds}; all {settlement.Comparisons.Count - unjudgeable} comparisons that could be judged settled (95 % together).{without}"
            : $"Repeated until settled: {rounds}; {settled} of {settlement.Comparisons.Count} comparisons settled, "
                + $"{settlement.Unsettled.Count()} stayed unsettled: {string.Join(", ", settlement.Unsettled.Select(Name))}.{without}";
    }

    /// <summary>Each comparison on a line: <c>soap · compute iocp ÷ threadpool mean: 0.62× (0.55–0.70), differs (after 4 rounds)</c>.</summary>
    public static IEnumerable<string> Lines(RepetitionSettlement settlement)
    {
        ArgumentNullException.ThrowIfNull(settlement);
        return settlement.Comparisons.Select(c => $"{Name(c)}: " + (c.Result is not { } r
            ? "not judged (no interval: a figure of 0, identical repetitions, or a side not measured)"
            : $"{Format.Ratio(r.Estimate.Ratio)} ({Format.Ratio(r.Estimate.Low)}–{Format.Ratio(r.Estimate.High)}), {Verdict(r.Settlement)} ({(r.IsSettled ? "settled after" : "after")} {r.Rounds} rounds)"));
    }

    private static string Name(SettledComparison c) => $"{c.Title} {c.Label} {ModeFigures.Name(c.Figure)}";

    private static string Verdict(Settlement settlement) => settlement switch
    {
        Settlement.Differs => "differs",
        Settlement.NoLargerThanTolerance => "no difference larger than 5 %",
        _ => "unsettled",
    };
}
