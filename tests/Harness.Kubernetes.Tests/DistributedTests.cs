using Harness.Kubernetes.Tests.Checks;
using Harness.Kubernetes.Tests.Tooling;

namespace Harness.Kubernetes.Tests;

public sealed class DistributedTests
{
    [Fact]
    public void Agents_AreAnIndexedJobOfThree_EachRunningItsShareAtTheBarrier()
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
        Assert.Equal("/runs/harness-distributed", run.Barrier);
        Assert.Equal("/runs", run.Options!.OutputDirectory);
        Assert.DoesNotContain(manifests.Jobs, j => j.Metadata.Name == "runner");
    }

    [Fact]
    public void Runs_GoToAReadWriteManyVolume_ThatTheMergeReads_AfterBeingResumed()
    {
        // Arrange
        var manifests = Manifests.Of("overlays/distributed");

        // Act
        var claim = Assert.Single(manifests.Claims);
        var merge = manifests.Job("merge");

        // Assert
        Assert.Equal(["ReadWriteMany"], claim.Spec.AccessModes);
        Assert.True(merge.Spec.Suspend);
        Assert.Equal("merge", merge.Metadata.Labels["harness/stage"]);
        Assert.Equal(["merge", "/runs/harness-distributed", "--output=/runs/harness-distributed/merged"], merge.Spec.Template.Spec.Containers[0].Args);
        Assert.Equal(claim.Metadata.Name, merge.Spec.Template.Spec.Volumes.Single(v => v.Name == "runs").PersistentVolumeClaim.ClaimName);
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
