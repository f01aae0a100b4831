using System.Diagnostics;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Running;
using Harness.Metrics;

namespace Harness.LoadTests.Tests;

/// <summary>The runner's own readings: a reading that fails (procfs mid-change) is left out, never the end of the run.</summary>
public sealed class RunnerSamplerTests : IDisposable
{
    private readonly string _folder = HarnessRun.TempFolder();

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public void Read_GivesEveryFigureOfTheRunner()
    {
        var readings = RunnerSampler.Read();

        Assert.True(readings[MetricNames.RunnerThreads] >= 1);
        Assert.True(readings[MetricNames.RunnerWorkingSetBytes] > 0);
        Assert.True(readings[MetricNames.RunnerCpuSecondsTotal] > 0);
        Assert.True(readings[MetricNames.RunnerGcHeapBytes] > 0);
    }

    [Fact]
    public void ReadGuarded_AReadingThatThrows_IsLeftOut_AndHandedOn()
    {
        var failures = new List<(string Name, Exception Error)>();

        var readings = RunnerSampler.ReadGuarded(
            [("good", _ => 1), ("threads", _ => throw new InvalidDataException("Found invalid data while decoding.")), ("also-good", _ => 2)],
            (name, ex) => failures.Add((name, ex)));

        Assert.Equal(new Dictionary<string, double> { ["good"] = 1, ["also-good"] = 2 }, readings);
        var failure = Assert.Single(failures);
        Assert.Equal("threads", failure.Name);
        Assert.IsType<InvalidDataException>(failure.Error);
    }

    [Fact]
    public async Task RunAsync_WithAReadingThatAlwaysThrows_RecordsTheOthersEverySecond_AndNotesItOnce()
    {
        // Arrange: a recorder of one series; a reading of a name no other test uses (notes are once per process).
        const string Series = "grpc-compute-iocp";
        var failing = $"failing_{Guid.NewGuid():N}";
        using var recorder = new GuardedRecorder(new RunRecorder(Manifest(Series), _folder), CancellationToken.None);
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(2.5));

        // Act
        await RunnerSampler.RunAsync(
            recorder, Series, Stopwatch.StartNew(), [("steady", _ => 7), (failing, _ => throw new InvalidDataException("procfs"))], stop.Token);
        recorder.Complete();

        // Assert: the run's files hold the steady reading in every second sampled, the failing one in none, one note.
        Assert.False(recorder.Failed);
        var run = RawRunReader.Read(_folder);
        var seconds = run.Timelines[Series];
        Assert.True(seconds.Count >= 2, $"{seconds.Count} seconds sampled");
        Assert.All(seconds, s => Assert.Equal(7, s.Server["steady"]));
        Assert.All(seconds, s => Assert.False(s.Server.ContainsKey(failing)));
        var note = Assert.Single(run.Events, e => e.Message.Contains(failing, StringComparison.Ordinal));
        Assert.Equal("note", note.Kind);
        Assert.Equal(Series, note.SeriesId);
        Assert.Contains("InvalidDataException: procfs", note.Message, StringComparison.Ordinal);
    }

    internal static RunManifest Manifest(string series) => new(
        RunManifest.CurrentFormatVersion,
        "20260101-000000",
        DateTimeOffset.UnixEpoch,
        "quick",
        "{}",
        1,
        ["iocp"],
        [new SeriesInfo(series, "grpc", "compute", "iocp", "http://127.0.0.1:1", "closed", new Dictionary<string, string>(), 0, null, null)],
        new MachineInfo(Environment.ProcessorCount, "Linux", "10.0", "test"),
        "harness run",
        ["test"]);
}
