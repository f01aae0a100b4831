using Harness.LoadTests.Engine;
using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Running;

/// <summary>Feeds one scenario's measurements into the run's recorder and progress line.</summary>
/// <param name="secondsIntoSeries">
/// Where the scenario starts in its series, in whole seconds: 0, or for a measured scenario that follows a warm-up burst
/// the second it started on, so that both are recorded on the series' one timeline.
/// </param>
/// <param name="follower">Who watches the series from outside the run (<see cref="IRunFollower"/>); null: no one.</param>
internal sealed class SeriesObserver(RunContext run, string seriesId, int secondsIntoSeries = 0, ISeriesFollower? follower = null) : ILoadObserver
{
    private readonly TimeSpan _offset = TimeSpan.FromSeconds(secondsIntoSeries);

    public void OnRequest(in RequestSample sample)
    {
        run.Progress.Tracker.Record(sample.Latency, sample.IsSuccess);
        run.Recorder.RecordRequest(
            seriesId,
            _offset + sample.CompletedAt,
            sample.Latency,
            run.IsOpenModel ? sample.LatencyFromIntendedStart : null,
            sample.IsSuccess,
            sample.StatusCode,
            sample.ServerTime,
            sample.Stream is { } stream ? new StreamCall(stream.MessagesSent, stream.MessagesReceived, stream.FirstMessage, stream.MessageGaps) : null);
        follower?.OnRequest(in sample);
    }

    /// <summary>
    /// Records the users of the scenario's first second, which no progress report gives (the first comes when a second
    /// has passed, by which time a burst may be over): a burst's or a constant stage's copies, an arrival rate.
    /// </summary>
    public void RecordStart(IReadOnlyList<LoadSimulation> stages) =>
        run.Recorder.RecordUsers(seriesId, secondsIntoSeries, stages.Count == 0 ? 0 : UsersAtStart(stages[0]));

    public void OnProgress(LoadProgress p)
    {
        run.Recorder.RecordUsers(seriesId, secondsIntoSeries + p.Second, p.Users);
        run.Progress.Update(p);
    }

    // Ramps start from 0; a pause runs none.
    private static int UsersAtStart(LoadSimulation stage) => stage switch
    {
        LoadSimulation.KeepConstant keep => keep.Copies,
        LoadSimulation.IterationsForConstant burst => burst.Copies,
        LoadSimulation.Inject inject => (int)Math.Round(inject.Rate / inject.Interval.TotalSeconds),
        _ => 0,
    };
}
