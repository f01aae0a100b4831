namespace Harness.LoadTests.Engine;

/// <summary>
/// Decides when a run's requests start: <see cref="CopyController"/> for the closed model (copies loop over the
/// scenario), <see cref="ArrivalScheduler"/> for the open model (arrivals follow the schedule). Everything else a run
/// does (counting, progress, the failure limit, the drain) is shared in <see cref="ScenarioRun"/>.
/// </summary>
internal interface ILoadDriver
{
    /// <summary>
    /// Starts requests through the run until the plan ends or the run stops starting them; requests still in flight
    /// are left to the run's drain.
    /// </summary>
    Task DriveAsync();

    /// <summary>What progress reports as users at <paramref name="elapsed"/>: copies running, or arrivals per second.</summary>
    int Users(TimeSpan elapsed);

    /// <summary>
    /// The scenario's length as known now: the plan's, less the time bursts saved by ending before their
    /// <c>During</c>. Progress reports it, so time left shrinks when a burst ends early.
    /// </summary>
    TimeSpan Duration { get; }

    /// <summary>Arrivals that fell due before load stopped but never started; the closed model has none.</summary>
    long MissedStarts { get; }
}
