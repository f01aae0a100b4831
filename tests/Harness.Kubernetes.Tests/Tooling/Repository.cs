namespace Harness.Kubernetes.Tests.Tooling;

/// <summary>Paths in the repository the tests run from.</summary>
public static class Repository
{
    public static string Root { get; } = FindRoot();

    public static string K8s => Path.Combine(Root, "k8s");

    /// <summary>Every kustomization a user applies: the base and each overlay (k8s/overlays/*).</summary>
    public static IReadOnlyList<string> Kustomizations { get; } =
    [
        "base",
        .. Directory.GetDirectories(Path.Combine(Root, "k8s", "overlays")).Select(d => "overlays/" + Path.GetFileName(d)).Order(StringComparer.Ordinal),
    ];

    public static string Kustomization(string relative) => Path.Combine(K8s, relative);

    private static string FindRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Harness.sln")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException($"No Harness.sln above {AppContext.BaseDirectory}.");
    }
}
