using Harness.LoadTests.Cli;
using Harness.LoadTests.Distributed;

namespace Harness.LoadTests.Tests.Distributed;

/// <summary><c>harness run --agent</c>: which index, and the options it needs; bad input is one line and exit code 2.</summary>
public sealed class AgentOptionsTests
{
    private const string Target = "--target=grpc=http://127.0.0.1:1";

    [Theory]
    [InlineData("0/3", 0, 3)]
    [InlineData("2/3", 2, 3)]
    [InlineData("0/1", 0, 1)]
    public void IndexOverCount_IsAgentIOfN(string text, int index, int count) =>
        Assert.Equal((index, count), AgentCommandOptions.ParseAgent(text, _ => null));

    [Fact]
    public void EnvForm_TakesTheIndexFromJobCompletionIndex() =>
        Assert.Equal((4, 5), AgentCommandOptions.ParseAgent("env/5", name => name == "JOB_COMPLETION_INDEX" ? "4" : null));

    [Fact]
    public void ClaimForm_LeavesTheIndexToTheBarrier() =>
        Assert.Equal((null, 3), AgentCommandOptions.ParseAgent("claim/3", _ => null));

    [Theory]
    [InlineData("3/3", null, "--agent 3/3: index 3 is not an agent index; indexes of 3 agents run from 0 to 2.")]
    [InlineData("0/0", null, "--agent 0/0: the number of agents must be between 1 and 1000; got 0.")]
    [InlineData("-1/3", null, "--agent '-1/3': write I/N (agent I of N, 0 ≤ I < N), env/N")]
    [InlineData("three", null, "--agent 'three': write I/N")]
    [InlineData("env/3", null, "--agent env/3: JOB_COMPLETION_INDEX is not set (Kubernetes sets it in an Indexed Job's pods); give the index itself, --agent I/3.")]
    [InlineData("env/3", "3", "--agent env/3: JOB_COMPLETION_INDEX=3 is not an agent index; indexes of 3 agents run from 0 to 2.")]
    [InlineData("env/3", "x", "--agent env/3: JOB_COMPLETION_INDEX=x is not an agent index")]
    public void BadAgent_SaysWhatIsWrong(string text, string? environmentIndex, string expected)
    {
        var ex = Assert.Throws<UsageException>(() => AgentCommandOptions.ParseAgent(text, _ => environmentIndex));

        Assert.StartsWith(expected, ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new[] { "--agent", "3/3", "--barrier", "B", Target }, "error: --agent 3/3: index 3 is not an agent index")]
    [InlineData(new[] { "--agent", "0/2", "--barrier", "B" }, "error: --agent needs --target: agents load services that are already running")]
    [InlineData(new[] { "--agent", "0/2", Target }, "error: --agent needs one of --barrier DIR and --start-at TIME")]
    [InlineData(new[] { "--agent", "0/2", "--barrier", "B", "--start-at", "2026-11-22T01:45:00Z", Target }, "error: --agent needs one of --barrier DIR and --start-at TIME")]
    [InlineData(new[] { "--agent", "claim/2", "--start-at", "2026-11-22T01:45:00Z", Target }, "error: --agent claim/2 needs --barrier DIR")]
    [InlineData(new[] { "--agent", "0/2", "--start-at", "soon", Target }, "error: --start-at 'soon' is not a time; write it in ISO 8601, UTC")]
    [InlineData(new[] { "--agent", "0/2", "--start-at", "2099-01-01T00:00:00Z", Target }, "is more than 24 h ahead")]
    [InlineData(new[] { "--agent", "0/2", "--barrier", "B", "--barrier-timeout", "0s", Target }, "error: --barrier-timeout '0s' must be a duration from 1s to 24h")]
    [InlineData(new[] { "--agent", "0/2", "--barrier", "B", "--run-id", "a/b", Target }, "error: --run-id 'a/b' must be 1 to 100 letters, digits")]
    [InlineData(new[] { "--run-id", "r1" }, "error: --run-id, --start-at and --barrier apply only with --agent I/N.")]
    public async Task Run_WithBadAgentOptions_ExitsWithCode2_InOneLine(string[] args, string expected)
    {
        var output = HarnessRun.TempFolder();

        var (exitCode, text) = await HarnessRun.InvokeAsync(["run", .. args, "--output", output]);

        Assert.Equal(2, exitCode);
        var line = Assert.Single(text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
        Assert.Contains(expected, line, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFileSystemEntries(output));
    }

    [Fact]
    public async Task Matrix_DoesNotTakeAgentOptions()
    {
        var (exitCode, text) = await HarnessRun.InvokeAsync("matrix", "--agent", "0/2");

        Assert.Equal(2, exitCode);
        Assert.Contains("unknown option '--agent' for harness matrix", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AgentLateForStartAt_FailsWithCode6_NamingIt_AndRunsNothing()
    {
        var output = HarnessRun.TempFolder();
        var start = DateTimeOffset.UtcNow.AddSeconds(-30).ToString("O");

        var (exitCode, text) = await HarnessRun.InvokeAsync("run", "--agent", "1/2", "--start-at", start, Target, "--output", output);

        Assert.Equal(6, exitCode);
        Assert.Contains("agent 1 of 2 is late and did not run", text, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFileSystemEntries(output));
    }

    [Fact]
    public async Task RunFolderOfTheSameAgentAlreadyThere_IsRefusedBeforeTheBarrier()
    {
        var output = HarnessRun.TempFolder();
        RecordedRuns.Write(Path.Combine(output, "agent-0-of-2"));

        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--agent", "0/2", "--barrier", Path.Combine(output, "barrier"), Target, "--output", output);

        Assert.Equal(2, exitCode);
        Assert.Contains("agent-0-of-2 already holds a run; give each distributed run an --output folder of its own.", text, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(output, "barrier", "start")));
    }
}
