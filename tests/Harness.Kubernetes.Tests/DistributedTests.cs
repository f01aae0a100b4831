using Harness.Kubernetes.Tests.Checks;
using Harness.Kubernetes.Tests.Tooling;

namespace Harness.Kubernetes.Tests;

public sealed class DistributedTests
{
    [Fact]
    public void Agents_AreAnIndexedJobOfThree_EachRunningItsShareForTheCoordinator()
    {
        // Arrange
        var manifests = Manifests.Of("overlays/distributed");

        // Act
        var agents = manifests.Job("agents");
        var run = Assert.Single(RunnerChecks.Runs(manifests));

        // Assert
        Assert.Equal("Indexed", agents.Spec.CompletionMode);
        Assert.Equal(3, agents.Spec.Completions);
        Assert.Equal(3, agents.Spec.Parallelism);
        Assert.Empty(run.Errors);
        Assert.Equal("0/3", run.Agent);
        Assert.Equal("http://coordinator:7070", run.Coordinator);
        Assert.Equal("/runs", run.Options!.OutputDirectory);
        // The agent's own folder is an emptyDir: it is uploaded, not shared.
        Assert.NotNull(agents.Spec.Template.Spec.Volumes.Single(v => v.Name == "runs").EmptyDir);
        Assert.DoesNotContain(manifests.Jobs, j => j.Metadata.Name == "runner");
    }

    [Fact]
    public void TheCoordinator_AloneWritesTheClaim_WhichNeedsOnlyReadWriteOnce()
    {
        // Arrange
        var manifests = Manifests.Of("overlays/distributed");

        // Act
        var claim = Assert.Single(manifests.Claims);
        var coordinator = manifests.Job("coordinator");
        var mounting = manifests.Workloads.Where(w => w.Pod.Volumes?.Any(v => v.PersistentVolumeClaim?.ClaimName == claim.Metadata.Name) == true).Select(w => w.Id);

        // Assert: the coordinator during the run, the collect Job (suspended, resumed after) once it is over.
        Assert.Equal(["ReadWriteOnce"], claim.Spec.AccessModes);
        Assert.Equal(["Job/collect", "Job/coordinator"], mounting.Order(StringComparer.Ordinal));
        Assert.Equal("load", coordinator.Metadata.Labels["harness/stage"]);
        Assert.Equal(["coordinate", "--agents=3", "--listen=0.0.0.0:7070", "--output=/runs", "--agent-timeout=15m", "--metrics-port=9464"], ContainerArgs.Expanded(coordinator.Spec.Template.Spec.Containers[0]));
        Assert.DoesNotContain(manifests.Jobs, j => j.Metadata.Name == "merge");
        var violations = RunnerChecks.All(manifests);
        Assert.True(violations.Count == 0, string.Join(Environment.NewLine, violations));
    }

    [Fact]
    public void AgentCount_EditedInCompletions_CarriesToParallelismAndTheAgentArgument()
    {
        // Arrange: a copy of the overlay with completions: 5, as a user would edit agents-job.yaml.
        using var copy = OverlayCopy("completions: 3", "completions: 5");

        // Act
        var manifests = Manifests.Render(copy.Directory);
        var agents = manifests.Job("agents");
        var run = Assert.Single(RunnerChecks.Runs(manifests));

        // Assert
        Assert.Equal(5, agents.Spec.Completions);
        Assert.Equal(5, agents.Spec.Parallelism);
        Assert.Equal("0/5", run.Agent);
        Assert.Contains("--agents=5", ContainerArgs.Expanded(manifests.Job("coordinator").Spec.Template.Spec.Containers[0]));
        var violations = StackChecks.All(manifests);
        Assert.True(violations.Count == 0, string.Join(Environment.NewLine, violations));
    }

    [Fact]
    public void AgentCount_PatchedOnTopWithoutParallelism_FailsTheChecks()
    {
        // Arrange: an overlay on top of distributed sees the replacement already done, so N must be patched whole.
        using var overlay = TempOverlay.Over("overlays/distributed", """
            patches:
              - patch: |-
                  apiVersion: batch/v1
                  kind: Job
                  metadata:
                    name: agents
                  spec:
                    completions: 5
            """);

        // Act
        var violations = StackChecks.All(overlay.Render());

        // Assert
        Assert.Contains(violations, v => v.Contains("completions = parallelism", StringComparison.Ordinal));
    }

    public static TheoryData<string, string, string> Breakages => new()
    {
        { "coordinator", "{op: replace, path: /spec/template/spec/containers/0/args/1, value: --agents=2}", "Job/agents container agent: one of 3 agents, but Job/coordinator waits for --agents 2" },
        { "agents", "{op: replace, path: /spec/template/spec/containers/0/args/3, value: '--coordinator=http://coordinator:7071'}", "--coordinator http://coordinator:7071/ is not a Service port reaching a `harness coordinate` container" },
        { "coordinator", "{op: replace, path: /spec/template/spec/containers/0/args/2, value: '--listen=127.0.0.1:7070'}", "Job/coordinator container coordinator: --listen 127.0.0.1:7070 must be 0.0.0.0:PORT" },
        { "coordinator", "{op: replace, path: /spec/template/spec/containers/0/args/3, value: --output=/tmp}", "Job/coordinator container coordinator: --output /tmp is not on a writable PersistentVolumeClaim mount" },
    };

    [Theory]
    [MemberData(nameof(Breakages))]
    public void Breaking_TheCoordination_IsReported(string job, string patch, string expected)
    {
        // Arrange
        using var overlay = TempOverlay.Over("overlays/distributed", $"""
            patches:
              - target:
                  kind: Job
                  name: {job}
                patch: |-
                  - {patch}
            """);

        // Act
        var violations = StackChecks.All(overlay.Render());

        // Assert
        Assert.True(violations.Any(v => v.Contains(expected, StringComparison.Ordinal)),
            $"expected a violation containing \"{expected}\"; got:{Environment.NewLine}{string.Join(Environment.NewLine, violations)}");
    }

    private static TempFolder OverlayCopy(string find, string replace)
    {
        var folder = new TempFolder();
        var source = Repository.Kustomization("overlays/distributed");
        var toBase = Path.GetRelativePath(folder.Directory, Repository.Kustomization("base")).Replace('\\', '/');
        foreach (var file in Directory.GetFiles(source))
        {
            var text = File.ReadAllText(file).Replace("../../base", toBase, StringComparison.Ordinal).Replace(find, replace, StringComparison.Ordinal);
            File.WriteAllText(Path.Combine(folder.Directory, Path.GetFileName(file)), text);
        }

        return folder;
    }
}
