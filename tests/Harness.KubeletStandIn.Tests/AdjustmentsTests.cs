using Harness.KubeletStandIn.Cli;
using Harness.KubeletStandIn.Manifests;
using Harness.KubeletStandIn.Tests.Tooling;

namespace Harness.KubeletStandIn.Tests;

public sealed class AdjustmentsTests
{
    private static Options With(int? agents = null, string? duration = null, params string[] runnerArgs) =>
        new() { Overlay = "x", Output = "y", Agents = agents, Duration = duration, RunnerArgs = runnerArgs };

    [Fact]
    public void Agents_SetsCompletionsParallelismAndEveryAgentsVariable()
    {
        var manifests = Yaml.Parse(Yaml.Job("agents", "[run, --agent, $(JOB_COMPLETION_INDEX)/$(AGENTS)]", "AGENTS", "3", "Indexed", 3)
            + "\n---\n" + Yaml.Job("merge", "[merge]", "AGENTS", "3"));
        Adjustments.Apply(manifests, With(agents: 5));

        var agents = manifests.Jobs.First();
        Assert.Equal((5, 5), (agents.Spec.Completions, agents.Spec.Parallelism));
        Assert.All(manifests.Jobs, j => Assert.Equal("5", j.Spec.Template.Spec.Containers[0].Env.Single().Value));
        Assert.Equal(1, manifests.Jobs.Last().Spec.Completions); // not Indexed: left alone
    }

    [Fact]
    public void Duration_ReplacesTheRunnersDuration_OrAppendsIt_AndSetsSoakDuration()
    {
        var manifests = Yaml.Parse(
            Yaml.Job("a", "[run, --duration=$(SOAK_DURATION), --x]", "SOAK_DURATION", "4h", deadline: 16200) + "\n---\n"
            + Yaml.Job("b", "[run, --duration, 5m]") + "\n---\n"
            + Yaml.Job("c", "[run]", deadline: 60) + "\n---\n"
            + Yaml.Job("d", "[merge, --duration=1h]"));
        var lines = Adjustments.Apply(manifests, With(duration: "1m"));

        var args = manifests.Jobs.Select(j => string.Join(' ', j.Spec.Template.Spec.Containers[0].Args)).ToList();
        Assert.Equal(["run --duration=1m --x", "run --duration 1m", "run --duration=1m", "merge --duration=1h"], args);
        Assert.Equal("1m", manifests.Jobs.First().Spec.Template.Spec.Containers[0].Env.Single().Value);
        // Deadlines are never changed; a short one is named.
        Assert.Equal([16200, null, 60, null], manifests.Jobs.Select(j => j.Spec.ActiveDeadlineSeconds));
        Assert.Single(lines, l => l.StartsWith("warning: Job/c activeDeadlineSeconds 60", StringComparison.Ordinal));
    }

    [Fact]
    public void RunnerArgs_AreAppendedToRunnerContainersOnly()
    {
        var manifests = Yaml.Parse(Yaml.Job("a", "[run, --x]") + "\n---\n" + Yaml.Job("b", "[merge]"));
        Adjustments.Apply(manifests, With(null, null, "--modes=iocp", "--y"));
        Assert.Equal(["run --x --modes=iocp --y", "merge"], manifests.Jobs.Select(j => string.Join(' ', j.Spec.Template.Spec.Containers[0].Args)));
    }

    [Theory]
    [InlineData(new[] { "run", "--operations=compute,call-third-party", "--output=/runs" }, new[] { "--operations=compute" }, new[] { "run", "--output=/runs", "--operations=compute" })]
    [InlineData(new[] { "run", "--operations", "compute", "--live" }, new[] { "--operations=call-third-party" }, new[] { "run", "--live", "--operations=call-third-party" })]
    [InlineData(new[] { "run", "--stacks=grpc" }, new[] { "--warm-up=0", "--live" }, new[] { "run", "--stacks=grpc", "--warm-up=0", "--live" })]
    public void RunnerArgs_WithAValue_ReplaceTheManifestsOwnOption(string[] args, string[] extra, string[] expected) =>
        Assert.Equal(expected, Adjustments.WithRunnerArgs(args, extra));

    [Theory]
    [InlineData(3, null, null, "--agents applies to Indexed Jobs")]
    [InlineData(null, "1m", null, "--duration applies to containers")]
    [InlineData(null, null, "--x", "--runner-arg applies to containers")]
    public void AnOptionThatChangesNothing_IsRefused(int? agents, string? duration, string? arg, string message)
    {
        var manifests = Yaml.Parse(Yaml.Job("merge", "[merge]"));
        var error = Assert.Throws<UsageException>(() => Adjustments.Apply(manifests, With(agents, duration, arg is null ? [] : [arg])));
        Assert.StartsWith(message, error.Message, StringComparison.Ordinal);
    }
}
