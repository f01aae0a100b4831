using Harness.Kubernetes.Tests.Tooling;

namespace Harness.Kubernetes.Tests;

/// <summary>Every image can be pointed at a user's registry with an overlay's images: (or kustomize edit set image).</summary>
public sealed class ImageTests
{
    private static readonly string[] Images = ["harness/stub", "harness/soap", "harness/grpc", "harness/runner"];

    public static TheoryData<string> Kustomizations => [.. Repository.Kustomizations.Where(k => k != "overlays/registry")];

    [Theory]
    [MemberData(nameof(Kustomizations))]
    public void Images_AreTheFourHarnessImages_TaggedLocal(string kustomization)
    {
        // Arrange, Act
        var images = Manifests.Of(kustomization).Workloads
            .SelectMany(w => w.AllContainers).Select(c => c.Image).Distinct();

        // Assert
        Assert.All(images, image => Assert.Contains(image, Images.Select(i => i + ":local")));
    }

    [Theory]
    [MemberData(nameof(Kustomizations))]
    public void Images_OverriddenByAnOverlay_ChangeInEveryContainer(string kustomization)
    {
        // Arrange
        var body = "images:\n" + string.Concat(Images.Select(i => $"  - name: {i}\n    newName: registry.example.test/team/{i}\n    newTag: \"7\"\n"));
        using var overlay = TempOverlay.Over(kustomization, body);

        // Act
        var containers = overlay.Render().Workloads.SelectMany(w => w.AllContainers.Select(c => (w.Id, c.Name, c.Image))).ToList();

        // Assert
        Assert.NotEmpty(containers);
        Assert.All(containers, c => Assert.Matches(@"^registry\.example\.test/team/harness/(stub|soap|grpc|runner):7$", c.Image));
    }

    [Fact]
    public void RegistryOverlay_PointsEveryImageAtTheRegistry()
    {
        // Arrange, Act
        var images = Manifests.Of("overlays/registry").Workloads.SelectMany(w => w.AllContainers).Select(c => c.Image);

        // Assert
        Assert.All(images, image => Assert.StartsWith("registry.example.com/harness/", image, StringComparison.Ordinal));
    }
}
