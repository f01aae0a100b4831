using Harness.LoadTests.Commands;
using Harness.LoadTests.Common;

namespace Harness.LoadTests.Tests.Distributed;

/// <summary><c>harness run --agent</c>: which index, and the options it needs; bad input is one line and exit code 2.</summary>
public sealed class AgentOptionsTests
{
    private const string Target = "--target=grpc=http://127.0.0.1:1";
    private const string Coordinator = "http://127.0.0.1:1";

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
    public void ClaimForm_LeavesTheIndexToTheCoordinator() =>
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
    [InlineData(new[] { "--agent", "3/3", "--coordinator", Coordinator, Target }, "error: --agent 3/3: index 3 is not an agent index")]
    [InlineData(new[] { "--agent", "0/2", "--coordinator", Coordinator }, "error: --agent needs --target: agents load services that are already running")]
    [InlineData(new[] { "--agent", "0/2", Target }, "error: --agent needs --coordinator URL")]
    [InlineData(new[] { "--agent", "0/2", "--coordinator", "coordinator:7070", Target }, "error: --coordinator 'coordinator:7070' must be an http:// URL with no path")]
    [InlineData(new[] { "--agent", "0/2", "--coordinator", "http://c:7070/runs", Target }, "error: --coordinator 'http://c:7070/runs' must be an http:// URL with no path")]
    [InlineData(new[] { "--agent", "0/2", "--coordinator", Coordinator, "--agent-timeout", "0s", Target }, "error: --agent-timeout '0s' must be a duration from 1s to 24h")]
    [InlineData(new[] { "--coordinator", Coordinator }, "error: --coordinator applies only with --agent I/N.")]
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
    public async Task RunFolderOfTheSameAgentAlreadyThere_IsRefusedBeforeTheFirstMeeting()
    {
        // Arrange: a coordinator of two agents, and this agent's folder already written.
        await using var coordinator = await Coordinators.StartAsync(count: 2);
        var output = HarnessRun.TempFolder();
        RecordedRuns.Write(Path.Combine(output, "agent-0-of-2"));

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--agent", "0/2", "--coordinator", coordinator.Address.ToString(), Target, "--output", output);

        // Assert
        Assert.Equal(2, exitCode);
        Assert.Contains("agent-0-of-2 already holds a run; give each distributed run an --output folder of its own.", text, StringComparison.Ordinal);
        Assert.Equal("1 of 2 agents registered, no meeting yet, 0 runs uploaded", coordinator.State.Status());
    }

    [Fact]
    public async Task NoCoordinatorAnswering_FailsWithCode6_AfterTheAgentTimeout_NamingIt()
    {
        var output = HarnessRun.TempFolder();

        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--agent", "0/2", "--coordinator", "http://127.0.0.1:1", "--agent-timeout", "3s", Target, "--output", output);

        Assert.Equal(6, exitCode);
        Assert.Contains("the coordinator at http://127.0.0.1:1/ did not answer within 3s (--agent-timeout)", text, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFileSystemEntries(output));
    }

    [Theory]
    [InlineData(new[] { "--agents", "0" }, "error: --agents 0: the number of agents must be between 1 and 1000.")]
    [InlineData(new[] { "--agents", "2", "--listen", "7070" }, "error: --listen '7070' must be ADDRESS:PORT")]
    [InlineData(new[] { "--agents", "2", "--agent-timeout", "forever" }, "error: --agent-timeout 'forever' must be a duration from 1s to 24h")]
    [InlineData(new[] { "--agents", "2", "--silence-limit", "1s" }, "error: --silence-limit '1s' must be a duration from 3s to 10m")]
    [InlineData(new[] { "--agents", "2", "--max-start-spread", "0ms" }, "error: --max-start-spread '0ms' must be a duration from 1ms to 10s")]
    [InlineData(new[] { "--agents", "2", "--run-id", "a/b" }, "error: --run-id 'a/b' must be 1 to 100 letters")]
    [InlineData(new[] { "--agents", "2", "--assert", "p42" }, "error: ")]
    [InlineData(new[] { "--agents", "2", "--metrics-port", "0" }, "error: --metrics-port 0: a port is 1 to 65535, e.g. 9464.")]
    public async Task Coordinate_WithBadOptions_ExitsWithCode2_InOneLine(string[] args, string expected)
    {
        var output = HarnessRun.TempFolder();

        var (exitCode, text) = await HarnessRun.InvokeAsync(["coordinate", .. args, "--output", output]);

        Assert.Equal(2, exitCode);
        var line = Assert.Single(text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
        Assert.StartsWith(expected, line, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFileSystemEntries(output));
    }
}
