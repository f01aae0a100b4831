using System.Diagnostics;
using Harness.LoadTests.Cli;
using Harness.LoadTests.Distributed;

namespace Harness.LoadTests.Tests.Distributed;

/// <summary>Agents meeting in a shared folder: together they start in one second; a missing one fails them all, bounded, named.</summary>
public sealed class AgentBarrierTests
{
    private static readonly TimeSpan Short = TimeSpan.FromSeconds(1.5);

    [Theory]
    [InlineData("2026-11-22T01:45:00.0000000Z", "2026-11-22T01:45:01Z")]
    [InlineData("2026-11-22T01:45:00.0000001Z", "2026-11-22T01:45:02Z")]
    [InlineData("2026-11-22T01:45:00.9990000Z", "2026-11-22T01:45:02Z")]
    [InlineData("2026-11-22T02:45:00.5+01:00", "2026-11-22T01:45:02Z")]
    public void Start_IsTheFirstWholeSecondAtLeastASecondAfterTheLastArrival(string lastReady, string expected) =>
        Assert.Equal(DateTimeOffset.Parse(expected, null), AgentBarrier.StartAfter(DateTimeOffset.Parse(lastReady, null)));

    [Fact]
    public async Task AllAgentsPresent_StartAtTheSameWholeSecond_AfterTheLastArrival()
    {
        var barrier = HarnessRun.TempFolder();

        // Agents arrive 0.3 s apart; each waits for the others.
        var agents = Enumerable.Range(0, 3).Select(async i =>
        {
            await Task.Delay(TimeSpan.FromMilliseconds(300 * i));
            var start = await AgentBarrier.MeetAsync(barrier, "start", i, 3, TimeSpan.FromSeconds(20), CancellationToken.None);
            return (Start: start, StartedAt: DateTimeOffset.UtcNow);
        }).ToList();
        var results = await Task.WhenAll(agents);

        var start = results[0].Start;
        Assert.All(results, r => Assert.Equal(start, r.Start));
        Assert.Equal(0, start.Ticks % TimeSpan.TicksPerSecond);
        Assert.All(results, r => Assert.True(r.StartedAt >= start, $"started at {r.StartedAt:O}, before {start:O}"));
        Assert.Equal(3, Directory.GetFiles(Path.Combine(barrier, "start"), "*.ready").Length);
    }

    [Fact]
    public async Task OneAgentMissing_FailsWithinTheTimeout_NamingIt_AndLeavesAGaveUpFile()
    {
        var barrier = HarnessRun.TempFolder();
        var clock = Stopwatch.StartNew();

        // Agents 0 and 2 of 3 come; agent 1 never does.
        var meetings = new[] { 0, 2 }.Select(i => AgentBarrier.MeetAsync(barrier, "start", i, 3, Short, CancellationToken.None)).ToList();

        // The first to time out names the missing agent; the other may instead see that one give up, and names it too.
        var messages = new List<string>();
        foreach (var meeting in meetings)
        {
            messages.Add((await Assert.ThrowsAsync<AgentsMissingException>(() => meeting)).Message);
        }

        Assert.Contains(messages, m => m.Contains("(start): agent 1 of 3 not ready within 1500ms", StringComparison.Ordinal));
        Assert.All(messages, m => Assert.Matches(@"agent 1 of 3 not ready|\(agent 1 missing\)", m));

        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(10), $"took {clock.Elapsed}");
        Assert.NotEmpty(Directory.GetFiles(Path.Combine(barrier, "start"), "*.gave-up"));
    }

    [Fact]
    public async Task AnAgentArrivingAfterAnotherGaveUp_FailsAtOnce_RatherThanStartingWithoutIt()
    {
        var barrier = HarnessRun.TempFolder();
        await Assert.ThrowsAsync<AgentsMissingException>(() => AgentBarrier.MeetAsync(barrier, "start", 0, 2, TimeSpan.FromSeconds(1), CancellationToken.None));
        var clock = Stopwatch.StartNew();

        var ex = await Assert.ThrowsAsync<AgentsMissingException>(
            () => AgentBarrier.MeetAsync(barrier, "start", 1, 2, TimeSpan.FromSeconds(30), CancellationToken.None));

        Assert.Contains("agent 0 of 2 stopped waiting before every agent was ready", ex.Message, StringComparison.Ordinal);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(5), $"took {clock.Elapsed}");
    }

    [Fact]
    public async Task AnInterruptedAgent_TellsTheOthers_WhoFailAtOnce()
    {
        var barrier = HarnessRun.TempFolder();
        using var interrupt = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));
        var waiting = AgentBarrier.MeetAsync(barrier, "start", 1, 3, TimeSpan.FromSeconds(30), CancellationToken.None);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => AgentBarrier.MeetAsync(barrier, "start", 0, 3, TimeSpan.FromSeconds(30), interrupt.Token));

        var ex = await Assert.ThrowsAsync<AgentsMissingException>(() => waiting.WaitAsync(TimeSpan.FromSeconds(5)));
        Assert.Contains("agent 0 of 3 stopped waiting before every agent was ready (agent 2 missing)", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AFolderThatAlreadyHoldsThisAgentsReadyFile_IsRefused()
    {
        var barrier = HarnessRun.TempFolder();
        await AgentBarrier.MeetAsync(barrier, "start", 0, 1, Short, CancellationToken.None);

        var ex = await Assert.ThrowsAsync<UsageException>(() => AgentBarrier.MeetAsync(barrier, "start", 0, 1, Short, CancellationToken.None));

        Assert.Contains("start/agent-0.ready is already there, from an earlier run; give each run a barrier folder of its own.", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ABarrierThatCannotBeWritten_IsBadInput()
    {
        var notAFolder = Path.Combine(HarnessRun.TempFolder(), "file");
        await File.WriteAllTextAsync(notAFolder, "");

        var ex = await Assert.ThrowsAsync<UsageException>(() => AgentBarrier.MeetAsync(notAFolder, "start", 0, 2, Short, CancellationToken.None));

        Assert.StartsWith($"--barrier {notAFolder}: ", ex.Message, StringComparison.Ordinal);
        Assert.EndsWith("Every agent needs to write and read the barrier folder.", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AgentsCountingDifferentNumbers_AreToldSo()
    {
        var barrier = HarnessRun.TempFolder();
        var other = AgentBarrier.MeetAsync(barrier, "start", 1, 4, Short, CancellationToken.None);

        var ex = await Assert.ThrowsAsync<UsageException>(() => AgentBarrier.MeetAsync(barrier, "start", 0, 3, Short, CancellationToken.None));

        Assert.Contains("agent 1 was started as one of 4 agents, this one as one of 3", ex.Message, StringComparison.Ordinal);
        await Assert.ThrowsAnyAsync<Exception>(() => other);
    }

    [Fact]
    public async Task Claims_GiveEachAgentAnIndexOfItsOwn_AndRefuseOneTooMany()
    {
        var barrier = HarnessRun.TempFolder();

        var claimed = await Task.WhenAll(Enumerable.Range(0, 4).Select(_ => Task.Run(() => AgentBarrier.Claim(barrier, 4, "host"))));
        var ex = Assert.Throws<UsageException>(() => AgentBarrier.Claim(barrier, 4, "host"));

        Assert.Equal([0, 1, 2, 3], claimed.Order());
        Assert.Contains("all 4 agent indexes are claimed", ex.Message, StringComparison.Ordinal);
    }
}
