using Harness.LoadTests.Distributed.Coordination;

namespace Harness.LoadTests.Tests.Distributed;

/// <summary>The coordinator's rules without HTTP: who may join, when a meeting releases its agents, and what aborts a run.</summary>
public sealed class CoordinatorStateTests
{
    private static readonly DateTimeOffset T0 = new(2026, 11, 25, 12, 0, 0, 300, TimeSpan.Zero);
    private static readonly TimeSpan NoWait = TimeSpan.FromMilliseconds(1);

    [Fact]
    public void Register_GivesTheLowestFreeIndex_WhenTheAgentHasNone()
    {
        var state = new CoordinatorState(3, "r", TimeSpan.FromMinutes(1), new ManualClock(T0));

        var first = state.Register(Agent(index: null, count: 3));
        var second = state.Register(Agent(index: null, count: 3));
        var third = state.Register(Agent(index: null, count: 3));

        Assert.Equal([0, 1, 2], [first.Index, second.Index, third.Index]);
        Assert.Equal("r", first.RunId);
    }

    [Fact]
    public void Register_RefusesAClaimAmongGivenIndexes_WhichCouldTakeALaterAgentsIndex()
    {
        var state = new CoordinatorState(3, "r", TimeSpan.FromMinutes(1), new ManualClock(T0));
        state.Register(Agent(index: 1, count: 3, machine: "host-a"));

        var ex = Assert.Throws<CoordinationRefusedException>(() => state.Register(Agent(index: null, count: 3)));

        Assert.Equal("host was started with claim/N, the first agent (host-a) with an index; start all agents of a run with an index, or all with claim/N; every agent of a run needs the same options.", ex.Message);
    }

    [Theory]
    [InlineData(4, null, null, "was started as one of 4 agents, but the coordinator waits for 2; start every agent with --agent …/2.")]
    [InlineData(2, 0, null, "agent 0 is already registered (by host-a); give each agent an index of its own.")]
    [InlineData(2, 5, null, "index 5 is not one of 2 agents (0 to 1).")]
    [InlineData(2, 1, "quick at time scale 0.5", "runs profile quick at time scale 0.5, the first agent (host-a) quick at time scale 1; every agent of a run needs the same options.")]
    public void Register_RefusesAnAgentThatDoesNotFit(int count, int? index, string? profile, string expected)
    {
        var state = new CoordinatorState(2, "r", TimeSpan.FromMinutes(1), new ManualClock(T0));
        state.Register(Agent(0, machine: "host-a"));

        var ex = Assert.Throws<CoordinationRefusedException>(() => state.Register(Agent(index, count, profile: profile ?? "quick at time scale 1")));

        Assert.EndsWith(expected, ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Register_RefusesOtherSeries_AndAnAgentTooMany()
    {
        var state = new CoordinatorState(1, "r", TimeSpan.FromMinutes(1), new ManualClock(T0));
        state.Register(Agent(null, count: 1));

        var extra = Assert.Throws<CoordinationRefusedException>(() => state.Register(Agent(null, count: 1)));

        Assert.Contains("all 1 agent indexes are taken (agent 0); more agents started than --agents 1.", extra.Message, StringComparison.Ordinal);
        var other = new CoordinatorState(2, "r", TimeSpan.FromMinutes(1), new ManualClock(T0));
        other.Register(Agent(0));
        var series = Assert.Throws<CoordinationRefusedException>(() => other.Register(Agent(1) with { Series = ["grpc-compute-b"] }));
        Assert.Contains("runs the series grpc-compute-b, the first agent (host) grpc-compute-a, grpc-compute-b", series.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Meeting_ReleasesEveryAgent_AtOneWholeSecond_AMarginAfterTheLastArrival()
    {
        // Arrange
        var clock = new ManualClock(T0);
        var state = Registered(clock, 2);

        // Act: agent 0 arrives alone and is told to ask again; agent 1 comes 2.5 s later.
        var alone = await state.MeetAsync(new MeetRequest(0, "start", 3, 0.2), NoWait, CancellationToken.None);
        clock.Advance(TimeSpan.FromSeconds(2.5));
        var second = await state.MeetAsync(new MeetRequest(1, "start", -4, 0.4), NoWait, CancellationToken.None);
        var first = await state.MeetAsync(new MeetRequest(0, "start", 3, 0.2), NoWait, CancellationToken.None);

        // Assert: last arrival 12:00:02.800 + 1 s margin → 12:00:04 for both.
        Assert.Null(alone);
        Assert.Equal(new DateTimeOffset(2026, 11, 25, 12, 0, 4, TimeSpan.Zero), second);
        Assert.Equal(second, first);
    }

    [Fact]
    public async Task Timings_GiveEachAgentsOffsetAndActualStart()
    {
        var clock = new ManualClock(T0);
        var state = Registered(clock, 2);
        await state.MeetAsync(new MeetRequest(0, "start", 3, 0.2), NoWait, CancellationToken.None);
        var start = (await state.MeetAsync(new MeetRequest(1, "start", -4, 0.4), NoWait, CancellationToken.None))!.Value;

        state.Started(new StartedRequest(0, "start", start.AddMilliseconds(2).UtcTicks));
        state.Started(new StartedRequest(1, "start", start.AddMilliseconds(7).UtcTicks));

        var timing = Assert.Single(state.Timings());
        Assert.Equal(start, timing.Start);
        Assert.Equal([TimeSpan.FromMilliseconds(3), TimeSpan.FromMilliseconds(-4)], timing.Agents.Select(a => a.Offset));
        Assert.Equal(TimeSpan.FromMilliseconds(5), StartSpread.Describe(timing).Spread);
    }

    [Fact]
    public async Task AnAgentThatNeverRegisters_AbortsTheRun_AfterTheAgentTimeout_NamingWhoCame()
    {
        var clock = new ManualClock(T0);
        var state = new CoordinatorState(3, "r", TimeSpan.FromMinutes(10), clock);
        state.Register(Agent(0, count: 3));
        state.Register(Agent(2, count: 3));

        // The two that came keep saying they are alive; at 10 minutes the third is given up on.
        for (var seconds = 10; seconds <= 600; seconds += 10)
        {
            clock.Advance(TimeSpan.FromSeconds(10));
            state.Heartbeat(0);
            state.Heartbeat(2);
            state.Check();
        }

        clock.Advance(TimeSpan.FromSeconds(1));
        state.Heartbeat(0);
        state.Check();

        var ex = await Assert.ThrowsAsync<CoordinationRefusedException>(() => state.MeetAsync(new MeetRequest(0, "start", 0, 0), NoWait, CancellationToken.None));
        Assert.Equal("1 of 3 agents did not register within 10m (--agent-timeout); registered: agents 0, 2.", ex.Message);
    }

    [Fact]
    public async Task AnAgentThatFallsSilent_AbortsTheRun_AndTheOthersWaitingAreToldAtOnce()
    {
        // Arrange: agent 1 waits at the start meeting (its polls keep it heard); agent 0 never comes back.
        var clock = new ManualClock(T0);
        var state = Registered(clock, 2);
        var waiting = state.MeetAsync(new MeetRequest(1, "start", 0, 0), TimeSpan.FromSeconds(30), CancellationToken.None);

        // Act
        clock.Advance(TimeSpan.FromSeconds(20));
        state.Heartbeat(1);
        clock.Advance(TimeSpan.FromSeconds(11));
        state.Check();

        // Assert
        var ex = await Assert.ThrowsAsync<CoordinationRefusedException>(() => waiting);
        Assert.Equal("agent 0 (host) stopped answering: not heard from for 31 s (it died, or lost the network).", ex.Message);
        Assert.Throws<CoordinationRefusedException>(() => state.Heartbeat(1));
    }

    [Fact]
    public async Task AfterAnAbort_TheLiveAgentsUploadsAreStillTaken_ThenTheCoordinationEnds()
    {
        var clock = new ManualClock(T0);
        var state = Registered(clock, 2);
        clock.Advance(TimeSpan.FromSeconds(25));
        state.Heartbeat(1);
        clock.Advance(TimeSpan.FromSeconds(10));
        state.Check();

        state.Uploading(1);
        state.Uploaded(1, exitCode: 6);

        var outcome = await state.Completion.WaitAsync(TimeSpan.FromSeconds(5));
        Assert.StartsWith("agent 0 (host) stopped answering", outcome.Error, StringComparison.Ordinal);
        Assert.Equal([null, 6], outcome.Agents.Select(a => a.ExitCode));
    }

    [Fact]
    public async Task AnAgentLeavingWithoutARun_AbortsTheRunAtOnce_AndEndsItWhenTheOthersHaveUploaded()
    {
        var state = Registered(new ManualClock(T0), 2);

        state.Left(1, exitCode: 130, "it was interrupted before its first series");
        var told = Assert.Throws<CoordinationRefusedException>(() => state.Heartbeat(0));
        state.Uploaded(0, exitCode: 6);

        var outcome = await state.Completion.WaitAsync(TimeSpan.FromSeconds(5));
        Assert.Equal("agent 1 (host) ended with exit code 130 and no run to upload: it was interrupted before its first series", outcome.Error);
        Assert.Equal(outcome.Error, told.Message);
        Assert.Equal([6, null], outcome.Agents.Select(a => a.ExitCode));
    }

    [Fact]
    public void HeartbeatInterval_IsASixthOfTheSilenceLimit()
    {
        var state = new CoordinatorState(1, "r", TimeSpan.FromMinutes(1), new ManualClock(T0), silenceLimit: TimeSpan.FromSeconds(12));

        var answer = state.Register(Agent(0, count: 1));

        Assert.Equal(2, answer.HeartbeatSeconds);
    }

    [Fact]
    public async Task EveryAgentUploading_EndsTheCoordination_WithNoError()
    {
        var state = Registered(new ManualClock(T0), 2);

        state.Uploaded(0, 0);
        Assert.False(state.Completion.IsCompleted);
        state.Uploaded(1, 1);

        var outcome = await state.Completion.WaitAsync(TimeSpan.FromSeconds(5));
        Assert.Null(outcome.Error);
        Assert.Equal([0, 1], outcome.Agents.Select(a => a.ExitCode));
    }

    [Fact]
    public async Task AMeetingAgentsDoNotAllReach_AbortsTheRun_NamingTheMissing()
    {
        var clock = new ManualClock(T0);
        var state = Registered(clock, 3, TimeSpan.FromMinutes(2));
        await state.MeetAsync(new MeetRequest(1, "series-001-grpc-compute-a", 0, 0), NoWait, CancellationToken.None);

        for (var i = 0; i < 13; i++)
        {
            clock.Advance(TimeSpan.FromSeconds(10));
            state.Heartbeat(0);
            state.Heartbeat(1);
            state.Heartbeat(2);
            state.Check();
        }

        var ex = Assert.Throws<CoordinationRefusedException>(() => state.Heartbeat(0));
        Assert.Equal("meeting 'series-001-grpc-compute-a': agents 0, 2 of 3 did not come within 2m (--agent-timeout) of the first arrival.", ex.Message);
    }

    [Fact]
    public async Task AMeetingTheRunDoesNotHave_IsRefused()
    {
        var state = Registered(new ManualClock(T0), 1);

        var ex = await Assert.ThrowsAsync<CoordinationRefusedException>(() => state.MeetAsync(new MeetRequest(0, "series-009-x", 0, 0), NoWait, CancellationToken.None));

        Assert.Contains("'series-009-x' is not a meeting of this run (its meetings: start, series-001-grpc-compute-a, series-002-grpc-compute-b)", ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("2026-11-25T12:00:02.800Z", "2026-11-25T12:00:04Z")]
    [InlineData("2026-11-25T12:00:02.000Z", "2026-11-25T12:00:03Z")]
    public void StartAfter_IsTheFirstWholeSecondAtLeastAMarginLater(string lastArrival, string expected) =>
        Assert.Equal(DateTimeOffset.Parse(expected), CoordinatorState.StartAfter(DateTimeOffset.Parse(lastArrival)));

    private static CoordinatorState Registered(ManualClock clock, int count, TimeSpan? agentTimeout = null)
    {
        var state = new CoordinatorState(count, "r", agentTimeout ?? TimeSpan.FromMinutes(1), clock);
        for (var i = 0; i < count; i++)
        {
            state.Register(Agent(i, count));
        }

        return state;
    }

    private static RegisterRequest Agent(int? index, int count = 2, string machine = "host", string profile = "quick at time scale 1") =>
        new(index, count, machine, ["grpc-compute-a", "grpc-compute-b"], profile);
}
