using static Harness.LoadTests.Engine.Tests.TestRuns;

namespace Harness.LoadTests.Engine.Tests;

/// <summary>Arrivals: the schedule, overlap, the in-flight limit and coordinated omission.</summary>
public sealed class OpenModelTests
{
    [Fact]
    public async Task Inject_starts_requests_on_an_even_schedule()
    {
        var observer = new RecordingObserver();

        var result = await Run(
            DelayThenOk(TimeSpan.FromMilliseconds(10)),
            observer,
            stages: new LoadSimulation.Inject(20, S(1), S(2)));

        var samples = observer.Samples.OrderBy(s => s.IntendedStartAt).ToArray();
        Assert.Equal(40, result.Requests);
        Assert.Equal(40, samples.Length);
        for (var i = 0; i < samples.Length; i++)
        {
            Assert.Equal(TimeSpan.FromMilliseconds(50 * i), samples[i].IntendedStartAt);
            Assert.True(samples[i].StartedAt >= samples[i].IntendedStartAt);
        }

        var lateness = samples.Select(s => (s.StartedAt - s.IntendedStartAt).TotalMilliseconds).Order().ToArray();
        Assert.True(lateness[lateness.Length / 2] < 30, $"median lateness {lateness[lateness.Length / 2]} ms");
        var gaps = samples.Skip(1).Zip(samples, (b, a) => (b.StartedAt - a.StartedAt).TotalMilliseconds).Order().ToArray();
        Assert.InRange(gaps[gaps.Length / 2], 40, 60);
        Assert.Equal(0, result.MissedStarts);
        Assert.InRange(result.Elapsed, AtLeast(2), S(2.6));
    }

    [Fact]
    public async Task A_high_rate_schedule_catches_up_instead_of_sleeping_per_request()
    {
        var observer = new RecordingObserver();

        var result = await Run(_ => Task.FromResult(StepResult.Ok()), observer, stages: new LoadSimulation.Inject(5000, S(1), S(0.5)));

        var samples = observer.Samples;
        Assert.Equal(2500, result.Requests);
        Assert.Equal(2500, samples.Select(s => s.IntendedStartAt).Distinct().Count());
        Assert.InRange(result.Elapsed, AtLeast(0.5), S(1.2));
        var lateness = samples.Select(s => (s.StartedAt - s.IntendedStartAt).TotalMilliseconds).Order().ToArray();
        Assert.True(lateness[lateness.Length / 2] < 30, $"median lateness {lateness[lateness.Length / 2]} ms");
    }

    [Fact]
    public async Task Open_model_requests_overlap_when_the_step_is_slower_than_the_spacing()
    {
        var probe = new ConcurrencyProbe();
        var observer = new RecordingObserver();

        var result = await Run(ctx => probe.RunAsync(ctx, S(0.3)), observer, stages: new LoadSimulation.Inject(20, S(1), S(1)));

        Assert.Equal(20, result.Requests);
        Assert.InRange(probe.MaxRunning, 5, 8);
        var lateness = observer.Samples.Select(s => s.LatencyFromIntendedStart - s.Latency).Order().ToArray();
        Assert.True(lateness[lateness.Length / 2] < S(0.05), $"median lateness {lateness[lateness.Length / 2]}");
    }

    [Fact]
    public async Task Waiting_for_an_in_flight_slot_shows_in_latency_from_intended_start()
    {
        var probe = new ConcurrencyProbe();
        var observer = new RecordingObserver();
        var options = new LoadRunnerOptions { MaxOpenRequestsInFlight = 1 };

        var result = await Run(ctx => probe.RunAsync(ctx, S(0.3)), observer, options, stages: new LoadSimulation.Inject(10, S(1), S(1)));

        var samples = observer.Samples;
        Assert.Equal(1, probe.MaxRunning);
        Assert.InRange(samples.Count, 3, 4);
        Assert.Equal(10 - samples.Count, result.MissedStarts);
        var last = samples[^1];
        Assert.InRange(last.Latency, S(0.29), S(0.45));
        Assert.True(
            last.LatencyFromIntendedStart > last.Latency + S(0.35),
            $"latency {last.Latency}, from intended start {last.LatencyFromIntendedStart}");
        Assert.True(samples[^1].StartedAt - samples[^1].IntendedStartAt > samples[1].StartedAt - samples[1].IntendedStartAt);
    }

    [Fact]
    public async Task Open_model_progress_reports_the_arrival_rate()
    {
        var observer = new RecordingObserver();

        await Run(
            _ => Task.FromResult(StepResult.Ok()),
            observer,
            stages: new LoadSimulation.Inject(30, S(1), S(1.5)));

        // Users carries the arrival rate. How many requests the first second completed depends on how busy the machine
        // is (late arrivals fall into the next second), so the counts are checked at the end, where every arrival is in.
        Assert.Equal(30, observer.Progress[0].Users);
        Assert.Equal(observer.Samples.Count, observer.Progress[^1].Requests);
        Assert.InRange(observer.Progress[^1].Requests, 44, 46);
    }
}
