using Harness.Agreements;
using Harness.Kubernetes.Tests.Checks;
using Harness.Kubernetes.Tests.Tooling;
using k8s.Models;

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
    public void Overlays_IncludeSoakDistributedRegistryAndMonitoring()
    {
        Assert.Equal(["base", "overlays/distributed", "overlays/monitoring", "overlays/registry", "overlays/soak"], Repository.Kustomizations);
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
        var services = Services(manifests).ToList();
        var resources = services.Select(w => string.Join(";", w.Pod.Containers.Select(c =>
            $"{c.Resources.Limits["cpu"].ToDecimal()}/{c.Resources.Limits["memory"].ToDecimal()}"))).Distinct().ToList();

        // Assert
        var expected = from stack in new[] { "grpc", "soap" }
                       from mode in SchedulingModes.Names.Order(StringComparer.Ordinal)
                       select $"{stack}-{mode}";
        Assert.Equal(expected.Order(StringComparer.Ordinal), services.Select(w => w.Name).Order(StringComparer.Ordinal));
        Assert.Single(resources);
    }

    [Fact]
    public void Base_GivesEveryService_TheCpuOfServiceCpuYaml_AsRequestAndLimit()
    {
        // Arrange
        var cpu = ServiceCpu(File.ReadAllText(Path.Combine(Repository.K8s, "base", ServiceCpuFile)));
        var manifests = Manifests.Of("base");

        // Act
        var services = Services(manifests).SelectMany(w => w.Pod.Containers).ToList();

        // Assert: 2 by default (docs/kubernetes.md, "CPU"); the values file itself is not rendered.
        Assert.Equal(2m, cpu);
        Assert.Equal(6, services.Count);
        Assert.All(services, c => Assert.Equal((cpu, cpu), (c.Resources.Requests["cpu"].ToDecimal(), c.Resources.Limits["cpu"].ToDecimal())));
        Assert.DoesNotContain(manifests.ConfigMaps, m => m.Metadata.Name == "service-cpu");
    }

    [Fact]
    public void ServiceCpu_ChangedInItsOnePlace_ChangesEveryServiceAndNothingElse()
    {
        // Arrange: a copy of the base with service-cpu.yaml alone edited.
        using var copy = new TempFolder();
        CopyTree(Path.Combine(Repository.K8s, "base"), copy.Directory);
        var values = Path.Combine(copy.Directory, ServiceCpuFile);
        File.WriteAllText(values, File.ReadAllText(values).Replace("cpu: \"2\"", "cpu: \"3\"", StringComparison.Ordinal));

        // Act
        var manifests = Manifests.Render(copy.Directory);

        // Assert
        Assert.All(Services(manifests).SelectMany(w => w.Pod.Containers), c =>
            Assert.Equal((3m, 3m), (c.Resources.Requests["cpu"].ToDecimal(), c.Resources.Limits["cpu"].ToDecimal())));
        Assert.Equal(1m, manifests.Workload("Deployment", "stub").Pod.Containers[0].Resources.Limits["cpu"].ToDecimal());
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
        // Every mode twice in balanced rounds, so the report's ratios have intervals.
        Assert.Equal((2, false), (run.Options.Repeat, run.Options.RepeatUntilSettled));
        Assert.Equal("/runs", run.Options.OutputDirectory);
    }

    private const string ServiceCpuFile = "service-cpu.yaml";

    private static IEnumerable<Workload> Services(Manifests manifests) =>
        manifests.Workloads.Where(w => w.Template.Metadata.Labels.Value("app.kubernetes.io/component") == "service");

    private static decimal ServiceCpu(string yaml) =>
        new ResourceQuantity(k8s.KubernetesYaml.Deserialize<V1ConfigMap>(yaml, strict: true).Data["cpu"]).ToDecimal();

    private static void CopyTree(string from, string to)
    {
        foreach (var file in Directory.GetFiles(from, "*", SearchOption.AllDirectories))
        {
            var target = Path.Combine(to, Path.GetRelativePath(from, file));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
    }
}
