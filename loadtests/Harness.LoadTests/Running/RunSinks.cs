namespace Harness.LoadTests.Running;

/// <summary>
/// Someone who follows the run from outside while it lasts (<c>--metrics-port</c> and OTLP: Telemetry/; <c>--live</c>:
/// Live/). The command makes them (<see cref="RunSinks"/>), so the run knows none of them; each gets the seconds of
/// the progress line, and the series and their requests if it asks (<see cref="Follower"/>).
/// </summary>
internal interface IRunSink : IAsyncDisposable
{
    /// <summary>Takes the series as they start and end and every request; null when the seconds are enough.</summary>
    IRunFollower? Follower { get; }

    /// <summary>One line per listener or exporter, for the console.</summary>
    IEnumerable<string> Describe();

    /// <summary>A second of the current series, as the progress line printed it.</summary>
    void SecondPassed(ProgressSecond second);
}

/// <summary>How a run starts its sinks; a sink that is not given is not started.</summary>
/// <param name="Telemetry">
/// Started with the run's id, before its folder, and served until the report is written, so a last scrape sees the
/// final counts; null when the options ask for nothing. Throws a <c>UsageException</c> for bad input (a port it
/// cannot listen on): exit code 2, before any load.
/// </param>
/// <param name="Live">For <c>--live</c>: started with the page's title when the series start, stopped when they end.</param>
internal sealed record RunSinks(
    Func<RunOptions, string, CancellationToken, Task<IRunSink?>>? Telemetry = null,
    Func<string, CancellationToken, Task<IRunSink>>? Live = null)
{
    public static RunSinks None { get; } = new();
}
