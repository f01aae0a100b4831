using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Running;

/// <summary>How each series is measured, apart from its load: the backoff after connection failures.</summary>
/// <param name="Backoff">How a virtual user waits after a connection failure; null = it retries at once (<c>--backoff off</c>).</param>
internal sealed record MeasurementSettings(FailureBackoff? Backoff)
{
    /// <summary>The engine's default, 100 ms doubling up to 2 s: an outage is measured as time, not as a flood of instant failures.</summary>
    public static FailureBackoff DefaultBackoff { get; } = new(TimeSpan.FromMilliseconds(100), TimeSpan.FromSeconds(2));

    public static MeasurementSettings Default { get; } = new(DefaultBackoff);
}
