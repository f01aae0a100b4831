using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Running;

/// <summary>
/// Follows a run as it goes, beside the recorder and the progress line, for whoever watches it from outside: the
/// series as they start and end, and every request (each second comes through <see cref="ProgressPrinter.SecondPassed"/>,
/// as it does for <c>--live</c>). <c>--metrics-port</c> and OTLP (Telemetry/) are one; the run has none when neither is asked for.
/// </summary>
internal interface IRunFollower
{
    /// <summary>A series starts its load; what it returns takes the series' requests.</summary>
    /// <param name="warmsUp">The load starts with a warm-up (else with the measured part).</param>
    ISeriesFollower StartSeries(SeriesLabels series, bool warmsUp);

    /// <summary>The series' load is over, its requests drained: it is no longer current.</summary>
    void EndSeries(string seriesId);
}

/// <summary>Takes one series' requests, from many threads at once; keep it cheap and never throw (the engine would stop the load).</summary>
internal interface ISeriesFollower
{
    void OnRequest(in RequestSample sample);
}

/// <summary>What names a series outside the run: its id and the stack, operation and mode it loads.</summary>
internal sealed record SeriesLabels(string Id, string Stack, string Operation, string Mode);
