using System.Collections.Concurrent;
using Harness.LoadTests.Engine;
using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Tests;

/// <summary>
/// A user's own scenarios (<see cref="HarnessApp"/>) run by the command as its operations: a series per scenario and
/// mode, the step's results counted as the harness counts its own, each series' target handed to the step, and the
/// options that cannot apply refused naming what can.
/// </summary>
public sealed class ScenarioAppTests
{
    private static readonly string[] Short = ["--profile", "quick", "--time-scale", "0.1", "--warm-up", "0"];

    [Fact]
    public async Task TwoScenariosWithoutTargets_AreTwoSeriesOfOneReport_CountedByTheirResults()
    {
        // Arrange: one scenario that always succeeds (and says its server time), one that fails every other call.
        var okCalls = 0L;
        var halfCalls = 0L;
        var ok = Scenario.Create("ok", async ctx =>
        {
            Interlocked.Increment(ref okCalls);
            await Task.Delay(2, ctx.CancellationToken);
            return StepResult.Ok(TimeSpan.FromMilliseconds(1));
        });
        var half = Scenario.Create("half", async ctx =>
        {
            await Task.Delay(2, ctx.CancellationToken);
            return Interlocked.Increment(ref halfCalls) % 2 == 0 ? StepResult.Ok() : StepResult.Fail("TEAPOT");
        });
        var output = HarnessRun.TempFolder();

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync(["run", .. Short, "--output", output], [ok, half]);

        // Assert
        Assert.True(exitCode == 0, text);
        var run = RawRunReader.Read(HarnessRun.RunFolder(output));
        Assert.Equal(["scenario-ok-default", "scenario-half-default"], run.Manifest.Series.Select(s => s.Id));
        var okSeconds = run.Timelines["scenario-ok-default"];
        var recorded = okSeconds.Sum(s => s.Requests);
        Assert.InRange(recorded, 1, Interlocked.Read(ref okCalls));
        Assert.Equal(0, okSeconds.Sum(s => s.Failures));
        Assert.True(okSeconds.Any(s => s.ServerTime is { TotalCount: > 0 }), "the step's server time was not recorded");
        var halfSeconds = run.Timelines["scenario-half-default"];
        var failures = halfSeconds.Sum(s => s.Failures);
        Assert.InRange(failures, 1, halfSeconds.Sum(s => s.Requests));
        Assert.Equal(failures, halfSeconds.Sum(s => s.StatusCounts.GetValueOrDefault("TEAPOT")));
    }

    [Fact]
    public async Task AStreamingStep_TimedByStreamClock_IsRecordedAndReportedAsStreams()
    {
        // Arrange: a step of one's own that streams: two messages out, three back.
        var stream = Scenario.Create("stream", async ctx =>
        {
            var clock = StreamClock.Start();
            clock.Sent();
            clock.Sent();
            for (var i = 0; i < 3; i++)
            {
                await Task.Delay(1, ctx.CancellationToken);
                clock.Received();
            }

            return StepResult.Ok() with { Stream = clock.Figures };
        });
        var output = HarnessRun.TempFolder();

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync(["run", .. Short, "--output", output], [stream]);

        // Assert
        Assert.True(exitCode == 0, text);
        var seconds = RawRunReader.Read(HarnessRun.RunFolder(output)).Timelines["scenario-stream-default"].Where(s => s.Requests > 0).ToList();
        Assert.NotEmpty(seconds);
        Assert.All(seconds, s => Assert.Equal((s.Requests, 2 * s.Requests, 3 * s.Requests, 2 * s.Requests), (s.Stream!.Calls, s.Stream.MessagesSent, s.Stream.MessagesReceived, s.Stream.MessageGap.TotalCount)));
        Assert.Contains("3.00 received", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task WithTargets_EachSeriesStepSeesItsOwnTarget_AndTheModesAreTheTargets()
    {
        // Arrange: nothing listens at either address; the step only notes where it was sent.
        var seen = new ConcurrentDictionary<string, byte>();
        var probe = Scenario.Create("probe", ctx =>
        {
            seen.TryAdd(ctx.Target?.ToString() ?? "none", 0);
            return Task.FromResult(StepResult.Ok());
        });
        var output = HarnessRun.TempFolder();

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            ["run", .. Short, "--output", output,
             "--target", "grpc=http://127.0.0.1:1,metrics=http://127.0.0.1:1,mode=a",
             "--target", "grpc=http://127.0.0.1:2,metrics=http://127.0.0.1:2,mode=b"],
            [probe]);

        // Assert
        Assert.True(exitCode == 0, text);
        var run = RawRunReader.Read(HarnessRun.RunFolder(output));
        Assert.Equal(["grpc-probe-a", "grpc-probe-b"], run.Manifest.Series.Select(s => s.Id));
        Assert.Equal(["http://127.0.0.1:1/", "http://127.0.0.1:2/"], seen.Keys.Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task RepeatAuto_StopsAtTheFirstLookThatSettlesEveryComparison_AndTheReportSaysSo()
    {
        // Arrange: mode "slow" answers 30× later than "fast", so the first look (after two rounds) settles the three
        // comparisons (mean, p99, req/s) as differences unless the machine is very noisy: the run then stops at 4
        // series of the 8 that auto:4 allows. Either way the run must stop exactly when the look says settled.
        var step = Scenario.Create("wait", async ctx =>
        {
            await Task.Delay(ctx.Target?.Port == 2 ? 60 : 2, ctx.CancellationToken);
            return StepResult.Ok();
        });
        var output = HarnessRun.TempFolder();

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            ["run", "--profile", "quick", "--time-scale", "0.1", "--warm-up", "1s", "--output", output, "--repeat", "auto:4",
             "--target", "grpc=http://127.0.0.1:1,metrics=http://127.0.0.1:1,mode=fast",
             "--target", "grpc=http://127.0.0.1:2,metrics=http://127.0.0.1:2,mode=slow"],
            [step]);

        // Assert
        Assert.True(exitCode == 0, text);
        var folder = HarnessRun.RunFolder(output);
        var run = RawRunReader.Read(folder);
        var summary = File.ReadAllText(Path.Combine(folder, "summary.md"));
        Assert.Equal(4, run.Manifest.RepeatUntilSettled);
        Assert.Contains("slow ÷ fast mean: ", summary, StringComparison.Ordinal);
        if (text.Contains("repeat auto, after round 2 of at most 4: 3 of 3 comparisons settled; stopping.", StringComparison.Ordinal))
        {
            Assert.Equal([(1, "fast"), (1, "slow"), (2, "slow"), (2, "fast")], run.Manifest.Series.Select(s => (s.Round, s.Mode)));
            Assert.Contains("Repeated until settled: 2 of at most 4 rounds; all 3 comparisons settled", summary, StringComparison.Ordinal);
        }
        else
        {
            // A look that left a comparison open runs the last two rounds, and the report names what stayed open.
            Assert.True(text.Contains("repeat auto, after round 2 of at most 4: ", StringComparison.Ordinal) && text.Contains("; another two rounds.", StringComparison.Ordinal), text);
            Assert.Equal(8, run.Manifest.Series.Count);
            Assert.Contains("Repeated until settled: 4 of at most 4 rounds", summary, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData("--call", "a.B/C", "--call loads one method instead of scenarios; this app runs its own scenarios (ok)")]
    [InlineData("--operations", "compute", "--operations 'compute': valid values are ok")]
    [InlineData("--modes", "a/b", "--modes 'a/b': without --target a mode is a label")]
    public async Task OptionsThatCannotApply_AreRefused_NamingWhatCan(string option, string value, string expected)
    {
        var ok = Scenario.Create("ok", _ => Task.FromResult(StepResult.Ok()));

        var (exitCode, text) = await HarnessRun.InvokeAsync(["run", .. Short, option, value, "--output", HarnessRun.TempFolder()], [ok]);

        Assert.Equal(2, exitCode);
        Assert.Contains(expected, text, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("has space")]
    [InlineData("ok,ok2")]
    public async Task AScenarioNameThatCannotNameASeries_IsRefusedBeforeAnything(string name)
    {
        var bad = Scenario.Create(name, _ => Task.FromResult(StepResult.Ok()));

        var refused = await Assert.ThrowsAsync<ArgumentException>(() => HarnessApp.RunAsync(["run"], bad));

        Assert.Contains($"scenario name '{name}' must be letters, digits", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task TwoScenariosOfOneName_AreRefused()
    {
        var one = Scenario.Create("same", _ => Task.FromResult(StepResult.Ok()));
        var two = Scenario.Create("Same", _ => Task.FromResult(StepResult.Ok()));

        var refused = await Assert.ThrowsAsync<ArgumentException>(() => HarnessApp.RunAsync(["run"], one, two));

        Assert.Contains("scenario name 'same' is used by 2 scenarios", refused.Message, StringComparison.Ordinal);
    }
}
