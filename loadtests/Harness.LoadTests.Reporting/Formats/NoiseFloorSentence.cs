using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>The glance's sentence on the run's noise floor and the differences beyond it (<see cref="RunNoiseFloor"/>).</summary>
internal static class NoiseFloorSentence
{
    /// <summary>At most this many differences are named; the rest are counted.</summary>
    private const int Named = 8;

    public static string Of(RunNoiseFloor floor)
    {
        ArgumentNullException.ThrowIfNull(floor);
        if (!floor.HasRepetitions)
        {
            return "Each mode ran once, so this run cannot tell a difference between modes from noise and colours no ratio (\"single run\"); "
                + "run with --repeat 2 or more, or --repeat auto, to measure the noise floor.";
        }

        var noise = string.Join(" and ", new[] { Describe(floor.Mean, "the mean"), Describe(floor.P99, "the p99") }.OfType<string>());
        var beyond = floor.Beyond.Count == 0
            ? "no difference between modes exceeds it"
            : $"beyond it (a 95 % interval that excludes 1, and more than 5 %): {string.Join(", ", floor.Beyond.Take(Named).Select(Name))}"
                + (floor.Beyond.Count > Named ? $" and {floor.Beyond.Count - Named} more" : "");
        return $"Noise floor of this run, from its repetitions: one process of a mode was typically {noise} away from another; {beyond}.";
    }

    private static string? Describe(RepetitionNoise? noise, string figure) =>
        noise is null ? null : $"±{Format.Number(noise.Fraction * 100)} % on {figure}";

    private static string Name(DifferenceBeyondNoise d) =>
        $"{d.Group.Title} {d.Mode.Label} {ModeFigures.Name(d.Figure)} {Format.Ratio(d.Ratio.Median)}";
}
