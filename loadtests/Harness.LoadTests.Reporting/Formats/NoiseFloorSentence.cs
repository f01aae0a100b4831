using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>The glance's sentence on the run's noise floor and the differences beyond it (<see cref="RunNoiseFloor"/>).</summary>
internal static class NoiseFloorSentence
{
    /// <summary>At most this many differences are named; the rest are counted.</summary>
    private const int Named = 8;

    public static string Of(RunNoiseFloor floor, VerdictFamilySize family)
    {
        ArgumentNullException.ThrowIfNull(floor);
        ArgumentNullException.ThrowIfNull(family);
        if (!floor.HasRepetitions)
        {
            return "Each mode ran once, so this run cannot tell a difference between modes from noise and colours no ratio (\"single run\"); "
                + "run with --repeat 2 or more, or --repeat auto, to measure the noise floor.";
        }

        var noise = string.Join(" and ", new[] { Describe(floor.Mean, "the mean"), Describe(floor.P99, "the p99") }.OfType<string>());
        var judged = $"of the {family.Members} comparisons judged as one family ({VerdictFamily.Method}, family-wise 5 %)";
        var beyond = floor.Beyond.Count == 0
            ? $"none {judged} is better or worse beyond ±5 %, which is not the same as no difference: each group says what size of change this run could have found"
            : $"{floor.Beyond.Count} {judged} lie wholly beyond ±5 %: {string.Join(", ", floor.Beyond.Take(Named).Select(Name))}"
                + (floor.Beyond.Count > Named ? $" and {floor.Beyond.Count - Named} more" : "");
        return $"Noise floor of this run, from its repetitions: one process of a mode was typically {noise} away from another; {beyond}.";
    }

    private static string? Describe(RepetitionNoise? noise, string figure) =>
        noise is null ? null : $"±{Format.Number(noise.Fraction * 100)} % on {figure}";

    private static string Name(DifferenceBeyondNoise d) =>
        $"{d.Group.Title} {d.Mode.Label} {ModeFigures.Name(d.Figure)} {Format.Ratio(d.Ratio.Median)} {FigureText.Verdict(d.Ratio)}";
}
