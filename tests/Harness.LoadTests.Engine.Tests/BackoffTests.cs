using System.Collections.Concurrent;
using System.Diagnostics;
using static Harness.LoadTests.Engine.Tests.TestRuns;

namespace Harness.LoadTests.Engine.Tests;

/// <summary>
/// The closed model's backoff after connection failures. Assertions are on counts and on lower bounds of waits,
/// which a busy machine only lengthens.
/// </summary>
public sealed class BackoffTests
{
    private static readonly TimeSpan Ms = TimeSpan.FromMilliseconds(1);

    private static StepResult Refused() => StepResult.Fail("connection", isConnectionFailure: true);

    [Fact]
    public void Waits_double_per_consecutive_failure_up_to_max_with_jitter_only_shortening_them()
    {
        var backoff = new FailureBackoff(100 * Ms, 2000 * Ms);

        Assert.Equal(
            [100 * Ms, 200 * Ms, 400 * Ms, 800 * Ms, 1600 * Ms, 2000 * Ms, 2000 * Ms],
            new[] { 1, 2, 3, 4, 5, 6, 1000 }.Select(n => backoff.WaitAfter(n, random: 0)));
        Assert.Equal(90 * Ms, backoff.WaitAfter(1, random: 0.5));
        Assert.InRange(backoff.WaitAfter(int.MaxValue, random: 0.999_999), 1600 * Ms, 2000 * Ms);
        Assert.Throws<ArgumentOutOfRangeException>(() => backoff.WaitAfter(0, random: 0));
    }

    [Fact]
    public void The_default_backs_off_from_100_ms_to_2_s()
    {
        Assert.Equal(new FailureBackoff(100 * Ms, 2000 * Ms), new LoadRunnerOptions().Backoff);
    }

    [Fact]
    public async Task A_copy_whose_connections_fail_makes_a_bounded_number_of_requests_with_growing_waits()
    {
        var starts = new ConcurrentDictionary<int, ConcurrentQueue<long>>();
        var observer = new RecordingObserver();

        var result = await Run(
            ctx =>
            {
                starts.GetOrAdd(ctx.CopyNumber, _ => new()).Enqueue(Stopwatch.GetTimestamp());
                return Task.FromResult(Refused());
            },
            observer,
            stages: new LoadSimulation.KeepConstant(4, S(2)));

        // Default backoff: waits of at least 80, 160, 320, 640, 1280 ms, so at most 5 starts per copy in 2 s.
        Assert.Equal(4, starts.Count);
        Assert.All(starts.Values, copy => Assert.InRange(copy.Count, 2, 8));
        Assert.Equal(result.Requests, result.Failures);
        foreach (var copy in starts.Values)
        {
            var times = copy.ToArray();
            for (var k = 1; k < times.Length; k++)
            {
                var gap = Stopwatch.GetElapsedTime(times[k - 1], times[k]);
                var least = 0.8 * Math.Min(2000, 100 * Math.Pow(2, k - 1));
                Assert.True(gap >= (least - 2) * Ms, $"wait {k} was {gap.TotalMilliseconds:F0} ms, less than {least:F0} ms");
            }
        }
    }

    [Fact]
    public async Task A_success_ends_the_streak_so_the_wait_starts_again_from_initial()
    {
        var observer = new RecordingObserver();
        var options = new LoadRunnerOptions { Backoff = new FailureBackoff(50 * Ms, TimeSpan.FromSeconds(10)) };

        var result = await Run(
            ctx => Task.FromResult(ctx.InvocationNumber % 2 == 0 ? Refused() : StepResult.Ok()),
            observer,
            options,
            stages: new LoadSimulation.KeepConstant(1, S(1.5)));

        // Were the streak never reset, the waits would be at least 40, 80, 160, 320, 640 ms: at most 6 failures in 1.5 s.
        Assert.True(result.Failures >= 10, $"{result.Failures} failures");
        Assert.InRange(result.Requests - result.Failures, result.Failures - 1, result.Failures + 1);
    }

    [Fact]
    public async Task Null_turns_backoff_off_and_copies_retry_at_once()
    {
        var observer = new RecordingObserver(keepSamples: false);
        var options = new LoadRunnerOptions { Backoff = null };

        var result = await Run(_ => Task.FromResult(Refused()), observer, options, stages: new LoadSimulation.KeepConstant(2, S(0.5)));

        Assert.True(result.Failures > 200, $"{result.Failures} failures");
    }

    [Fact]
    public async Task Failures_that_are_not_connection_failures_do_not_back_off()
    {
        var observer = new RecordingObserver(keepSamples: false);

        var result = await Run(_ => Task.FromResult(StepResult.Fail("503")), observer, stages: new LoadSimulation.KeepConstant(2, S(0.5)));

        Assert.True(result.Failures > 200, $"{result.Failures} failures");
    }

    [Fact]
    public async Task The_open_model_never_backs_off()
    {
        var observer = new RecordingObserver();

        var result = await Run(_ => Task.FromResult(Refused()), observer, stages: new LoadSimulation.Inject(20, S(1), S(0.5)));

        Assert.Equal(10, result.Requests);
        Assert.Equal(10, result.Failures);
    }

    [Fact]
    public async Task A_bursts_copies_back_off_between_iterations_but_not_after_their_last()
    {
        var observer = new RecordingObserver();

        var result = await Run(_ => Task.FromResult(Refused()), observer, stages: new LoadSimulation.IterationsForConstant(2, 3, S(20)));

        // Two waits per copy, at least 80 + 160 ms; no wait after the third request, so the run ends soon after.
        Assert.Equal(6, result.Requests);
        Assert.InRange(result.Elapsed, AtLeast(0.24), S(2));
    }

    [Theory]
    [InlineData(0, 1000, "Backoff.Initial must be greater than zero, was 00:00:00; set Backoff to null")]
    [InlineData(500, 100, "Backoff.Max must be at least Backoff.Initial (00:00:00.5000000), was 00:00:00.1000000")]
    public void Invalid_backoff_is_refused_before_the_run_starts(int initialMs, int maxMs, string message)
    {
        var options = new LoadRunnerOptions { Backoff = new FailureBackoff(initialMs * Ms, maxMs * Ms) };

        var error = Assert.Throws<ArgumentException>(() =>
        {
            _ = Run(_ => Task.FromResult(StepResult.Ok()), new RecordingObserver(), options, stages: new LoadSimulation.KeepConstant(1, S(1)));
        });

        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }
}
