using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Tests.Distributed;

/// <summary><c>harness merge</c>: the agents' runs of one distributed run into one, and a clear refusal of runs that do not belong together.</summary>
public sealed class MergeCommandTests
{
    [Fact]
    public async Task TheAgentsFolder_MergesIntoOneRun_WhoseCountsAreTheAgentsSums_WithTheLeadsServerCounters()
    {
        var agents = HarnessRun.TempFolder();
        for (var i = 0; i < 3; i++)
        {
            AgentFolders.Write(agents, i, 3);
        }

        var merged = Path.Combine(HarnessRun.TempFolder(), "merged");

        var (exitCode, text) = await HarnessRun.InvokeAsync("merge", agents, "--output", merged);

        Assert.True(exitCode == 0, text);
        Assert.Contains($"merged run r1: 3 agents, 1 series, {4 * 60} requests, into {merged}", text, StringComparison.Ordinal);
        Assert.True(File.Exists(Path.Combine(merged, "index.html")));
        var run = RawRunReader.Read(merged);
        var timeline = run.Timelines["grpc-compute-iocp"];
        Assert.All(timeline, s => Assert.Equal((6, 60L), (s.Users, s.Requests)));
        Assert.All(timeline, s => Assert.Equal(s.Second, s.Server["harness_threadpool_threads"]));
        Assert.Equal(["agent-0-of-3@host-0", "agent-1-of-3@host-1", "agent-2-of-3@host-2"], run.Manifest.Agents);
        Assert.Equal("r1", run.Manifest.RunId);
    }

    [Fact]
    public async Task RunFoldersGivenOneByOne_InAnyOrder_MergeWithTheLeadFirst()
    {
        var agents = HarnessRun.TempFolder();
        var folders = Enumerable.Range(0, 2).Select(i => AgentFolders.Write(agents, i, 2)).Reverse().ToArray();
        var merged = Path.Combine(HarnessRun.TempFolder(), "merged");

        var (exitCode, text) = await HarnessRun.InvokeAsync(["merge", .. folders, "--output", merged, "--assert", "p99<1s"]);

        Assert.True(exitCode == 0, text);
        Assert.Equal(["agent-0-of-2@host-0", "agent-1-of-2@host-1"], RawRunReader.Read(merged).Manifest.Agents);
    }

    public static TheoryData<string, Action<string>, string> Refusals => new()
    {
        { "another run id", dir => AgentFolders.Write(dir, 2, 3, runId: "r2"), "agent-2-of-3 belongs to run r2, agent 0's to run r1; merge joins the runs of one --agent run." },
        { "another profile", dir => AgentFolders.Write(dir, 2, 3, profile: "ramp"), "agent-2-of-3 ran profile 'ramp' at time scale 1, agent 0 'quick' at 1;" },
        { "another time scale", dir => AgentFolders.Write(dir, 2, 3, timeScale: 0.5), "agent-2-of-3 ran profile 'quick' at time scale 0.5, agent 0 'quick' at 1;" },
        { "other series", dir => AgentFolders.Write(dir, 2, 3, series: ["grpc-compute-iocp", "soap-compute-iocp"]), "agent-2-of-3 has other series than agent 0: has soap-compute-iocp more;" },
        { "fewer series", dir => AgentFolders.Write(dir, 2, 3, series: ["soap-compute-iocp"]), "agent-2-of-3 has other series than agent 0: it lacks grpc-compute-iocp and has soap-compute-iocp more;" },
        { "another N", dir => AgentFolders.Write(dir, 2, 4), "agent-2-of-4 is agent 2 of 4, but" },
        { "a missing agent", _ => { }, "run r1: agent 2 of 3 missing; merge needs every agent's run folder (given: agents 0, 1)." },
        { "a run of no agent", dir => RecordedRuns.Write(Path.Combine(dir, "agent-2-of-3")), "agent-2-of-3 is not an agent's run (its run.json names no agent-I-of-N)" },
    };

    [Theory]
    [MemberData(nameof(Refusals))]
    public async Task RunsThatDoNotBelongTogether_AreRefusedInOneLine_WithCode2(string why, Action<string> third, string expected)
    {
        var agents = HarnessRun.TempFolder();
        AgentFolders.Write(agents, 0, 3);
        AgentFolders.Write(agents, 1, 3);
        third(agents);
        var merged = Path.Combine(HarnessRun.TempFolder(), "merged");

        var (exitCode, text) = await HarnessRun.InvokeAsync("merge", agents, "--output", merged);

        Assert.True(exitCode == 2, why + ": " + text);
        var line = Assert.Single(text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
        Assert.Contains(expected, line, StringComparison.Ordinal);
        Assert.False(Directory.Exists(merged));
    }

    [Fact]
    public async Task TheSameAgentTwice_IsRefused()
    {
        var agents = HarnessRun.TempFolder();
        var first = AgentFolders.Write(agents, 0, 2);
        var copy = AgentFolders.Write(HarnessRun.TempFolder(), 0, 2);

        var (exitCode, text) = await HarnessRun.InvokeAsync("merge", first, copy, "--output", Path.Combine(agents, "merged"));

        Assert.Equal(2, exitCode);
        Assert.Contains($"is agent 0 of 2, as {first} is; merge joins the runs of one --agent run.", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AnOutputThatIsNotEmpty_OrAFolderWithNoRun_IsRefused()
    {
        var agents = HarnessRun.TempFolder();
        AgentFolders.Write(agents, 0, 1);

        var (notEmpty, text) = await HarnessRun.InvokeAsync("merge", agents, "--output", agents);
        var (noRun, text2) = await HarnessRun.InvokeAsync("merge", HarnessRun.TempFolder(), "--output", Path.Combine(agents, "m"));

        Assert.Equal(2, notEmpty);
        Assert.Contains("is not empty; the merged run needs a folder of its own.", text, StringComparison.Ordinal);
        Assert.Equal(2, noRun);
        Assert.Contains("is neither a run folder (no run.json) nor a folder holding agents' agent-I-of-N run folders.", text2, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Wait_EndsBounded_NamingTheAgentsWithNoDoneMarker_Code6()
    {
        var agents = HarnessRun.TempFolder();
        AgentFolders.Write(agents, 0, 3);
        AgentFolders.Write(agents, 1, 3, doneExitCode: null);
        var merged = Path.Combine(HarnessRun.TempFolder(), "merged");

        var (exitCode, text) = await HarnessRun.InvokeAsync("merge", agents, "--output", merged, "--wait", "1s");

        Assert.Equal(6, exitCode);
        Assert.Contains("merge --wait 1s: agents 1, 2 of 3 wrote no done marker", text, StringComparison.Ordinal);
        Assert.False(Directory.Exists(merged));
    }

    [Fact]
    public async Task Wait_MergesOnceTheLastAgentIsDone()
    {
        var agents = HarnessRun.TempFolder();
        AgentFolders.Write(agents, 0, 2);
        var merged = Path.Combine(HarnessRun.TempFolder(), "merged");

        var merging = HarnessRun.InvokeAsync("merge", agents, "--output", merged, "--wait", "30s");
        await Task.Delay(TimeSpan.FromSeconds(1.5));
        AgentFolders.Write(agents, 1, 2);
        var (exitCode, text) = await merging;

        Assert.True(exitCode == 0, text);
        Assert.Equal(2, RawRunReader.Read(merged).Manifest.Agents.Count);
    }

    [Fact]
    public async Task AnAgentThatDidNotFinish_IsMergedWithAWarning()
    {
        var agents = HarnessRun.TempFolder();
        AgentFolders.Write(agents, 0, 2, doneExitCode: 6);
        AgentFolders.Write(agents, 1, 2, doneExitCode: null);
        var merged = Path.Combine(HarnessRun.TempFolder(), "merged");

        var (exitCode, text) = await HarnessRun.InvokeAsync("merge", agents, "--output", merged);

        Assert.True(exitCode == 0, text);
        Assert.Contains("agent-0-of-2: the agent ended with exit code 6; its run may be cut short.", text, StringComparison.Ordinal);
        Assert.Contains("agent-1-of-2: no done marker: the agent may still be running, or died; its run may be cut short.", text, StringComparison.Ordinal);
    }
}
