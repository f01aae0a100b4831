namespace Harness.Kubernetes.Tests.Tooling;

/// <summary>
/// A throw-away overlay on top of one of ours, in a temporary folder: what a user's own overlay would do. kustomize
/// accepts only relative paths to other kustomizations, so the resource is written relative to the temp folder.
/// </summary>
public sealed class TempOverlay : IDisposable
{
    private readonly TempFolder _folder;

    private TempOverlay(TempFolder folder) => _folder = folder;

    public string Directory => _folder.Directory;

    /// <param name="baseKustomization">e.g. <c>overlays/soak</c>, under k8s/.</param>
    /// <param name="body">The rest of the kustomization.yaml: images:, patches:...</param>
    public static TempOverlay Over(string baseKustomization, string body)
    {
        var folder = new TempFolder();
        var directory = folder.Directory;
        var resource = Path.GetRelativePath(directory, Repository.Kustomization(baseKustomization)).Replace('\\', '/');
        File.WriteAllText(Path.Combine(directory, "kustomization.yaml"), $"""
            apiVersion: kustomize.config.k8s.io/v1beta1
            kind: Kustomization
            resources:
              - {resource}
            {body}
            """);
        return new TempOverlay(folder);
    }

    public Manifests Render() => Manifests.Render(Directory);

    public void Dispose() => _folder.Dispose();
}

/// <summary>A fresh folder under the temp directory, deleted on dispose.</summary>
public sealed class TempFolder : IDisposable
{
    public TempFolder()
    {
        Directory = Path.Combine(Path.GetTempPath(), "harness-k8s-tests", Guid.NewGuid().ToString("N"));
        System.IO.Directory.CreateDirectory(Directory);
    }

    public string Directory { get; }

    public void Dispose()
    {
        try
        {
            System.IO.Directory.Delete(Directory, recursive: true);
        }
        catch (IOException)
        {
            // A leftover temp folder is harmless; never fail a test over it.
        }
    }
}
