using System.Formats.Tar;
using Harness.LoadTests.Distributed;
using Harness.LoadTests.Distributed.Coordination;
using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Tests.Distributed;

/// <summary>Agents' clients against a real coordinator on loopback: registering, meeting, uploading, being told to stop.</summary>
public sealed class CoordinatorHttpTests
{
    [Fact]
    public async Task TwoAgents_MeetAndStartTogether_ByTheCoordinatorsClock()
    {
        // Arrange
        await using var coordinator = await Coordinators.StartAsync(count: 2);
        await using var a = new CoordinatorClient(coordinator.Address, _ => { });
        await using var b = new CoordinatorClient(coordinator.Address, _ => { });
        await a.RegisterAsync(Agent(), TimeSpan.FromSeconds(10), CancellationToken.None);
        await b.RegisterAsync(Agent(), TimeSpan.FromSeconds(10), CancellationToken.None);

        // Act
        var starts = await Task.WhenAll(a.MeetAsync("start", CancellationToken.None), b.MeetAsync("start", CancellationToken.None));

        // Assert: one start for both (one machine, one clock: each converts it by its own measured offset, within
        // half a round trip), near a whole second; each said when it started.
        Assert.True((starts[0] - starts[1]).Duration() < TimeSpan.FromMilliseconds(5), $"{starts[0]:O} and {starts[1]:O}");
        var fromWhole = TimeSpan.FromTicks(starts[0].Ticks % TimeSpan.TicksPerSecond);
        Assert.True(fromWhole < TimeSpan.FromMilliseconds(5) || fromWhole > TimeSpan.FromMilliseconds(995), $"{starts[0]:O}");
        Assert.True(a.Clock.RoundTrip < TimeSpan.FromSeconds(1), $"round trip {a.Clock.RoundTrip}");
        Assert.True(a.Clock.Offset.Duration() <= a.Clock.RoundTrip, $"offset {a.Clock.Offset} on one machine");
        var timing = await Eventually(() => coordinator.State.Timings().SingleOrDefault(t => t.Agents.All(x => x.ActualStart is not null)));
        Assert.True(StartSpread.Describe(timing).Spread < TimeSpan.FromMilliseconds(100), StartSpread.Describe(timing).Text);
    }

    [Fact]
    public async Task AnUploadedRun_IsUnpackedOnTheCoordinatorsSide_AndEndsTheCoordination()
    {
        await using var coordinator = await Coordinators.StartAsync(count: 1);
        await using var agent = new CoordinatorClient(coordinator.Address, _ => { });
        await agent.RegisterAsync(Agent(count: 1), TimeSpan.FromSeconds(10), CancellationToken.None);
        var run = RecordedRuns.Write(Path.Combine(HarnessRun.TempFolder(), "agent-0-of-1"));

        var why = await agent.UploadAsync(run, exitCode: 0, CancellationToken.None);

        Assert.Null(why);
        var unpacked = Path.Combine(coordinator.AgentsFolder, "agent-0-of-1");
        Assert.Equal(
            Directory.GetFiles(run, "*", SearchOption.AllDirectories).Select(f => Path.GetRelativePath(run, f)).Order(),
            Directory.GetFiles(unpacked, "*", SearchOption.AllDirectories).Select(f => Path.GetRelativePath(unpacked, f)).Order());
        Assert.Equal(RawRunReader.Read(run).Manifest.RunId, RawRunReader.Read(unpacked).Manifest.RunId);
        var outcome = await coordinator.State.Completion.WaitAsync(TimeSpan.FromSeconds(5));
        Assert.Null(outcome.Error);
    }

    [Fact]
    public async Task AnAgentOfAnotherRun_IsRefusedAtRegistration_WithTheCoordinatorsReason()
    {
        await using var coordinator = await Coordinators.StartAsync(count: 2);
        await using var agent = new CoordinatorClient(coordinator.Address, _ => { });

        var ex = await Assert.ThrowsAsync<AgentsMissingException>(() => agent.RegisterAsync(Agent(count: 3), TimeSpan.FromSeconds(10), CancellationToken.None));

        Assert.Contains("was started as one of 3 agents, but the coordinator waits for 2", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AnAgentWaitingAtAMeeting_IsToldWhenTheRunIsAborted()
    {
        // Arrange: agent 1 of 2 registers, agent 0 never does; the agent timeout is 2 s.
        await using var coordinator = await Coordinators.StartAsync(count: 2, agentTimeout: TimeSpan.FromSeconds(2));
        await using var agent = new CoordinatorClient(coordinator.Address, _ => { });
        await agent.RegisterAsync(Agent(index: 1), TimeSpan.FromSeconds(10), CancellationToken.None);
        using var checks = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        var checking = Task.Run(async () =>
        {
            while (!coordinator.State.Completion.IsCompleted && !checks.IsCancellationRequested)
            {
                coordinator.State.Check();
                await Task.Delay(200);
            }
        });

        // Act
        var ex = await Assert.ThrowsAsync<AgentsMissingException>(() => agent.MeetAsync("start", checks.Token));

        // Assert
        Assert.Equal("1 of 2 agents did not register within 2s (--agent-timeout); registered: agent 1.", ex.Message);
        await checks.CancelAsync();
        await checking;
    }

    [Fact]
    public async Task AnArchiveEntryLeavingTheFolder_IsRefused()
    {
        using var tar = new MemoryStream();
        await using (var writer = new TarWriter(tar, leaveOpen: true))
        {
            await writer.WriteEntryAsync(new PaxTarEntry(TarEntryType.RegularFile, "../escape.txt") { DataStream = new MemoryStream([1, 2, 3]) });
        }

        tar.Position = 0;
        var folder = Path.Combine(HarnessRun.TempFolder(), "run");

        var ex = await Assert.ThrowsAsync<InvalidDataException>(() => RunArchive.UnpackAsync(tar, folder, CancellationToken.None));

        Assert.Contains("'../escape.txt' leaves the run folder", ex.Message, StringComparison.Ordinal);
        Assert.False(File.Exists(Path.Combine(folder, "..", "escape.txt")));
    }

    [Theory]
    [InlineData(0, 100, 40, -10, 0)]
    [InlineData(0, 20, 1000, 990, -500)]
    public void ClockOffset_IsTheRemoteTimeMinusTheRoundTripsMidpoint(int sentMs, int receivedMs, int remoteMs, int expectedOffsetMs, int skewMs)
    {
        var t0 = DateTimeOffset.UnixEpoch.AddMilliseconds(skewMs);

        var offset = ClockOffset.FromSample(t0.AddMilliseconds(sentMs), DateTimeOffset.UnixEpoch.AddMilliseconds(remoteMs), t0.AddMilliseconds(receivedMs));

        Assert.Equal(TimeSpan.FromMilliseconds(expectedOffsetMs - skewMs), offset.Offset);
        Assert.Equal(TimeSpan.FromMilliseconds(receivedMs - sentMs), offset.RoundTrip);
        Assert.Equal(DateTimeOffset.UnixEpoch.AddMilliseconds(remoteMs), offset.ToCoordinator(t0.AddMilliseconds((sentMs + receivedMs) / 2.0)));
    }

    [Theory]
    [InlineData(-0.04, "+0.0")]
    [InlineData(-0.06, "-0.1")]
    [InlineData(12.34, "+12.3")]
    public void Signed_NeverPrintsANegativeZero(double milliseconds, string expected) =>
        Assert.Equal(expected, StartSpread.Signed(TimeSpan.FromMilliseconds(milliseconds)));

    [Fact]
    public void StartSpread_WarnsInTheRun_WhenAgentsStartedFurtherApartThanTheBound()
    {
        var start = DateTimeOffset.UnixEpoch;
        var series = new SeriesInfo("grpc-compute-a", "grpc", "compute", "a", "http://x", "closed", new Dictionary<string, string>(), 12, null, null);
        var manifest = new RunManifest(RunManifest.CurrentFormatVersion, "r", start, "quick", "{}", 1, ["a"], [series], new MachineInfo(2, "Linux", "10", "t"), "harness", ["a"]);
        var timing = new MeetingTiming("series-001-grpc-compute-a", start, [
            new AgentTiming(0, TimeSpan.FromMilliseconds(1), TimeSpan.FromMilliseconds(2), start.AddMilliseconds(3)),
            new AgentTiming(1, TimeSpan.FromMilliseconds(-250), TimeSpan.FromMilliseconds(4), start.AddMilliseconds(153)),
        ]);

        var events = StartSpread.Events([timing], manifest, TimeSpan.FromMilliseconds(100));

        Assert.Equal([StartSpread.EventKind, StartSpread.WarningKind], events.Select(e => e.Kind));
        Assert.All(events, e => Assert.Equal((12.0, "grpc-compute-a"), (e.AtSeconds, e.SeriesId)));
        Assert.StartsWith("agents started within 150.0 ms of each other: agent 0 +3.0 ms (clock offset +1.0 ms ± 1.0); agent 1 +153.0 ms (clock offset -250.0 ms ± 2.0).", events[0].Message, StringComparison.Ordinal);
        Assert.StartsWith("the agents started this series 150 ms apart, more than the bound of 100 ms", events[1].Message, StringComparison.Ordinal);
    }

    private static RegisterRequest Agent(int? index = null, int count = 2) =>
        new(index, count, "host", ["grpc-compute-a"], "quick at time scale 1");

    private static async Task<T> Eventually<T>(Func<T?> read)
        where T : class
    {
        for (var i = 0; i < 50; i++)
        {
            if (read() is { } value)
            {
                return value;
            }

            await Task.Delay(100);
        }

        return read() ?? throw new TimeoutException("the coordinator did not record it within 5 s");
    }
}
