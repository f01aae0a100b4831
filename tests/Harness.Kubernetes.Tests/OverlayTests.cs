using Harness.Kubernetes.Tests.Checks;
using Harness.Kubernetes.Tests.Tooling;
using Harness.Scheduling;

namespace Harness.Kubernetes.Tests;

/// <summary>Every kustomization a user applies renders, parses strictly, and passes every check.</summary>
public sealed class OverlayTests
{
    public static TheoryData<string> Kustomizations => [.. Repository.Kustomizations];

    [Fact]
    public void Kubectl_WithKustomizeV5_IsFound()
    {
        // Arrange, Act: locating fails with what was tried and how to install one.
        var path = Kubectl.Path;

        // Assert
        Assert.True(File.Exists(path), path);
    }

    [Fact]
    public void Overlays_IncludeSoakDistributedAndRegistry()
    {
        Assert.Equal(["base", "overlays/distributed", "overlays/registry", "overlays/soak"], Repository.Kustomizations);
    }

    [Theory]
    [MemberData(nameof(Kustomizations))]
    public void Render_ParsesStrictly_AndPassesEveryCheck(string kustomization)
    {
        // Arrange, Act
        var manifests = Manifests.Of(kustomization);
        var violations = StackChecks.All(manifests);

        // Assert
        Assert.True(violations.Count == 0, string.Join(Environment.NewLine, violations));
        Assert.NotEmpty(manifests.Workloads);
    }

    [Theory]
    [MemberData(nameof(Kustomizations))]
    public void Namespace_EnforcesAuditsAndWarnsRestricted(string kustomization)
    {
        // Arrange, Act
        var ns = Assert.Single(Manifests.Of(kustomization).Namespaces);

        // Assert
        foreach (var mode in new[] { "enforce", "audit", "warn" })
        {
            Assert.Equal("restricted", ns.Metadata.Labels[$"pod-security.kubernetes.io/{mode}"]);
        }
    }

    [Fact]
    public void Base_RunsEveryModeOfBothStacks_UnderIdenticalResources()
    {
        // Arrange
        var manifests = Manifests.Of("base");

        // Act
        var services = manifests.Workloads.Where(w => w.Template.Metadata.Labels.Value("app.kubernetes.io/component") == "service").ToList();
        var resources = services.Select(w => string.Join(";", w.Pod.Containers.Select(c =>
            $"{c.Resources.Limits["cpu"].ToDecimal()}/{c.Resources.Limits["memory"].ToDecimal()}"))).Distinct().ToList();

        // Assert
        var expected = from stack in new[] { "grpc", "soap" }
                       from mode in SchedulingOptions.ModeNames.Keys.Order(StringComparer.Ordinal)
                       select $"{stack}-{mode}";
        Assert.Equal(expected.Order(StringComparer.Ordinal), services.Select(w => w.Name).Order(StringComparer.Ordinal));
        Assert.Single(resources);
    }

    [Fact]
    public void Base_Runner_LoadsAllSixServices_ModeAfterMode()
    {
        // Arrange, Act
        var run = Assert.Single(RunnerChecks.Runs(Manifests.Of("base")));

        // Assert
        Assert.Empty(run.Errors);
        Assert.Equal(6, run.Options!.Targets.Count);
        Assert.Equal(["threadpool", "iocp", "custompool"], run.Options.Modes);
        Assert.Equal("/runs", run.Options.OutputDirectory);
    }
}
