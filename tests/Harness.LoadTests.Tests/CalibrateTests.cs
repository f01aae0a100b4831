using Harness.LoadTests.Commands;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Formats;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Tests;

/// <summary><c>harness calibrate</c>: one mode against itself, and how the two series differ.</summary>
public sealed class CalibrateTests
{
    [Fact]
    public void NoiseFloor_OfAPair_GivesEachFiguresRatioAndSpread_AndAVerdict()
    {
        // Arrange: the second series 3 % slower on every request, one error more.
        var run = SyntheticRun(("grpc-compute-threadpool-1", 1, 100.0, 0), ("grpc-compute-threadpool-2", 2, 103.0, 1));

        // Act
        var group = Assert.Single(NoiseFloor.From(run));
        var text = NoiseFloorText.ToText([group]);

        // Assert
        Assert.Equal(["grpc-compute-threadpool-1", "grpc-compute-threadpool-2"], group.SeriesIds);
        var mean = group.Figures.Single(f => f.Name == "mean ms");
        Assert.Equal(0.03, mean.Spread, 3);
        Assert.True(group.IsQuiet);
        Assert.Contains("A/A noise floor: grpc · compute · threadpool, 2 series", text, StringComparison.Ordinal);
        Assert.Matches(@"mean ms\s+100\s+103\s+1\.030\s+3\.0 %\s+±5 %", text);
        Assert.Matches(@"errors\s+0\s+1\s+—\s+∞", text);
        Assert.Contains("Verdict: quiet. The mean spreads 3.0 % (limit 5 %) and p99 ", text, StringComparison.Ordinal);
    }

    [Fact]
    public void NoiseFloor_BeyondTheLimits_IsNoisy()
    {
        var run = SyntheticRun(("grpc-compute-iocp-1", 1, 100.0, 0), ("grpc-compute-iocp-2", 2, 130.0, 0));

        var group = Assert.Single(NoiseFloor.From(run));

        Assert.False(group.IsQuiet);
        Assert.Contains("Verdict: noisy. The mean spreads 30.0 % (limit 5 %)", NoiseFloorText.ToText([group]), StringComparison.Ordinal);
    }

    [Fact]
    public void NoiseFloor_OfFourRuns_GivesTheSpreadOfAll_WithoutAPairsRatio()
    {
        var run = SyntheticRun(
            ("grpc-compute-threadpool-1", 1, 100.0, 0), ("grpc-compute-threadpool-2", 2, 104.0, 0),
            ("grpc-compute-threadpool-3", 3, 98.0, 0), ("grpc-compute-threadpool-4", 4, 101.0, 0));

        var group = Assert.Single(NoiseFloor.From(run));
        var text = NoiseFloorText.ToText([group]);

        Assert.Equal(104.0 / 98.0 - 1, group.Figures.Single(f => f.Name == "mean ms").Spread, 3);
        Assert.DoesNotContain("÷", text, StringComparison.Ordinal);
        Assert.Contains("#4", text, StringComparison.Ordinal);
    }

    [Fact]
    public void NoiseFloor_LeavesTheWarmUpOut()
    {
        // The warm-up second of series 2 is a hundred times slower than series 1's; it must not count.
        var run = SyntheticRun(("grpc-compute-threadpool-1", 1, 100.0, 0), ("grpc-compute-threadpool-2", 2, 100.0, 0));
        run = run with
        {
            Timelines = new Dictionary<string, IReadOnlyList<SecondSample>>(run.Timelines)
            {
                ["grpc-compute-threadpool-2"] = [Second(0, 100_000, 0), .. run.Timelines["grpc-compute-threadpool-2"].Skip(1)],
            },
        };

        var group = Assert.Single(NoiseFloor.From(run));

        Assert.Equal(0, group.Figures.Single(f => f.Name == "mean ms").Spread);
    }

    [Fact]
    public void Pair_RunsTheOneModeTwice()
    {
        var options = CalibrateOptions();

        var paired = CalibrateCommand.Pair(options);

        Assert.Equal(["threadpool", "threadpool"], paired.Modes);
        Assert.Equal(
            ["grpc-compute-threadpool-1", "grpc-compute-threadpool-2", "grpc-compute-threadpool-3", "grpc-compute-threadpool-4"],
            RunPlan.Create(paired.Modes, 2, paired.Stacks, paired.Operations).SelectMany(m => m.Series).Select(s => s.Id));
    }

    [Fact]
    public void Defaults_AreTheOpenModelAa_ComputeOf5MillionIterations_OnGrpc()
    {
        var options = CalibrateOptions();

        Assert.Equal("aa", options.Profile.Name);
        Assert.True(options.Profile.IsOpenModel);
        Assert.Equal(TimeSpan.FromSeconds(40), options.Profile.Duration);
        Assert.Equal(["grpc"], options.Stacks);
        Assert.Equal(["compute"], options.Operations);
        Assert.Equal(5_000_000, options.Settings.Iterations);
    }

    [Fact]
    public async Task Calibrate_WithTwoModes_ExitsWithCode2_SayingItComparesOneModeWithItself()
    {
        var output = HarnessRun.TempFolder();

        var (exitCode, text) = await HarnessRun.InvokeAsync("calibrate", "--modes", "threadpool,iocp", "--output", output);

        Assert.Equal(2, exitCode);
        Assert.Contains("calibrate compares one mode with itself; threadpool, iocp are 2: give one, e.g. --modes threadpool", text, StringComparison.Ordinal);
        Assert.Empty(Directory.GetDirectories(output));
    }

    private static RunOptions CalibrateOptions()
    {
        var options = CalibrateCommand.NewOptions();
        var command = new System.CommandLine.Command("calibrate");
        options.AddTo(command);
        return options.Bind(command.Parse([]), "harness calibrate");
    }

    /// <summary>A run of one mode's series (id, repetition, every request's ms, failures), each with a warm-up second 0 ten times slower.</summary>
    private static RunData SyntheticRun(params (string Id, int Repetition, double Ms, int Failures)[] series)
    {
        var infos = series.Select(s => new SeriesInfo(
            s.Id, "grpc", "compute", s.Id.Split('-')[2], "http://127.0.0.1:1", "open",
            new Dictionary<string, string> { ["iterations"] = "5000000" }, 0, null, null, WarmUpSeconds: 1, Repetition: s.Repetition)).ToList();
        var timelines = series.ToDictionary(
            s => s.Id,
            s => (IReadOnlyList<SecondSample>)[.. Enumerable.Range(0, 6).Select(second => Second(second, second == 0 ? s.Ms * 10 : s.Ms, second == 5 ? s.Failures : 0))]);
        var manifest = new RunManifest(
            RunManifest.CurrentFormatVersion, "synthetic", DateTimeOffset.Now, "aa", "{}", 1, [.. infos.Select(i => i.Mode).Distinct()], infos,
            new MachineInfo(2, "Linux", "10.0", "test"), "harness calibrate", ["test"]);
        return new RunData(manifest, timelines, []);
    }

    private static SecondSample Second(int second, double ms, int failures)
    {
        var latency = new LatencyHistogram();
        latency.RecordValues((long)(ms * 1000), 30);
        var failed = new LatencyHistogram();
        if (failures > 0)
        {
            failed.RecordValues(1000, failures);
        }

        return new SecondSample(
            second, 30, 30 + failures, failures, failures > 0 ? new Dictionary<string, long> { ["UNAVAILABLE"] = failures } : new Dictionary<string, long>(),
            latency, latency, new Dictionary<string, double>(), failures > 0 ? failed : null);
    }
}
