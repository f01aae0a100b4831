namespace Harness.ServiceOperations;

/// <summary>
/// A benchmarking aid: makes every Compute call do a known fraction more work than it was asked for, so that an A/B
/// run of two services (one at 1.0, one at, say, 1.2) holds a true difference made independently of the harness, and
/// the harness's verdicts can be checked against it. Leave it at 1.0 for anything else.
/// </summary>
public sealed class ComputeWorkOptions
{
    public const string SectionName = "ComputeWork";

    public const double MinFactor = 1.0;
    public const double MaxFactor = 10.0;

    /// <summary>The iterations actually run per requested one (env <c>ComputeWork__Factor</c>), 1.0 to 10.0.</summary>
    public double Factor { get; set; } = MinFactor;

    /// <summary>The requested iterations times <see cref="Factor"/>, rounded, at most <see cref="int.MaxValue"/>.</summary>
    public int Scale(int iterations) => (int)Math.Min(int.MaxValue, Math.Round(iterations * Factor, MidpointRounding.AwayFromZero));
}
