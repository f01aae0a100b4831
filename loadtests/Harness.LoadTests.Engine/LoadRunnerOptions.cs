namespace Harness.LoadTests.Engine;

public sealed class LoadRunnerOptions
{
    /// <summary>
    /// The scenario stops early after this many failures. NBomber stops at 5,000 by default; the harness's default
    /// is far higher so that a run survives a failing target and still reports.
    /// </summary>
    public long MaxFailures { get; set; } = 1_000_000;

    /// <summary>After the last stage, how long requests still in flight may take before they are cancelled.</summary>
    public TimeSpan DrainTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>Open model: most requests in flight; a request due beyond it waits, and its intended start time keeps the delay visible.</summary>
    public int MaxOpenRequestsInFlight { get; set; } = 20_000;
}
