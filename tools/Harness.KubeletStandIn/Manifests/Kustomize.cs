using System.Diagnostics;
using System.Text.Json;
using Harness.KubeletStandIn.Cli;

namespace Harness.KubeletStandIn.Manifests;

/// <summary>
/// Finds the overlay and the kubectl that renders it, as scripts/k8s-run.sh does: OVERLAY is <c>base</c>, a folder
/// under k8s/overlays, or any folder with a kustomization.yaml; kubectl is KUBECTL, else the first on PATH with
/// kustomize v5 or newer, else .tools/kubectl (which .ci/run unpacks). Only <c>kubectl kustomize</c> is run: no cluster.
/// </summary>
internal static class Kustomize
{
    private static readonly TimeSpan RenderTimeout = TimeSpan.FromSeconds(60);

    public static string RepositoryRoot { get; } = FindRoot();

    /// <summary>The kustomization folder OVERLAY names; a <see cref="UsageException"/> lists the valid names.</summary>
    public static string LocateOverlay(string overlay)
    {
        var overlays = Path.Combine(RepositoryRoot, "k8s", "overlays");
        if (File.Exists(Path.Combine(overlays, overlay, "kustomization.yaml")) && !overlay.Contains('/', StringComparison.Ordinal))
        {
            return Path.Combine(overlays, overlay);
        }

        if (overlay == "base")
        {
            return Path.Combine(RepositoryRoot, "k8s", "base");
        }

        if (File.Exists(Path.Combine(overlay, "kustomization.yaml")))
        {
            return Path.GetFullPath(overlay);
        }

        IEnumerable<string?> names = Directory.Exists(overlays) ? Directory.GetDirectories(overlays).Select(Path.GetFileName).Order(StringComparer.Ordinal) : [];
        throw new UsageException($"no overlay '{overlay}': name one of: base {string.Join(' ', names)}, or a folder holding a kustomization.yaml");
    }

    /// <summary>The rendered YAML of a kustomization folder; a failure carries kustomize's own message.</summary>
    public static string Render(string directory)
    {
        var (code, output, error) = Run(Kubectl(), ["kustomize", directory], RenderTimeout);
        return code == 0 ? output : throw new ManifestException($"kubectl kustomize {directory} failed ({code}): {error.Trim()}");
    }

    private static string Kubectl()
    {
        var candidates = new List<string>();
        if (Environment.GetEnvironmentVariable("KUBECTL") is { Length: > 0 } explicitPath)
        {
            candidates.Add(explicitPath);
        }

        candidates.AddRange((Environment.GetEnvironmentVariable("PATH") ?? "")
            .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Select(dir => Path.Combine(dir, "kubectl")));
        candidates.Add(Path.Combine(RepositoryRoot, ".tools", "kubectl", "kubectl"));
        var tried = new List<string>();
        foreach (var candidate in candidates.Distinct().Where(File.Exists))
        {
            var version = KustomizeVersion(candidate);
            tried.Add($"{candidate} (kustomize {version ?? "unknown"})");
            if (version is not null && int.TryParse(version.TrimStart('v').Split('.')[0], out var major) && major >= 5)
            {
                return candidate;
            }
        }

        throw new UsageException(
            $"no kubectl with kustomize v5 or newer (KUBECTL, PATH, .tools/kubectl); tried: {(tried.Count == 0 ? "none found" : string.Join("; ", tried))}. Install kubectl 1.27+ or run .ci/run, which unpacks one into .tools/kubectl");
    }

    private static string? KustomizeVersion(string kubectl)
    {
        try
        {
            var (_, output, _) = Run(kubectl, ["version", "--client", "-o", "json"], TimeSpan.FromSeconds(30));
            using var json = JsonDocument.Parse(output);
            return json.RootElement.TryGetProperty("kustomizeVersion", out var v) ? v.GetString() : null;
        }
        catch (Exception ex) when (ex is JsonException or TimeoutException or System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }

    private static (int Code, string Output, string Error) Run(string fileName, IEnumerable<string> arguments, TimeSpan timeout)
    {
        var start = new ProcessStartInfo(fileName) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException($"could not start {fileName}");
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(timeout))
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{fileName} did not finish within {timeout.TotalSeconds:0} s");
        }

        process.WaitForExit();
        return (process.ExitCode, output.GetAwaiter().GetResult(), error.GetAwaiter().GetResult());
    }

    // The tool runs from its build output inside the repository (scripts/k8s-local.sh, the tests); the working
    // directory is the fallback for a copy run from elsewhere.
    private static string FindRoot()
    {
        foreach (var start in new[] { AppContext.BaseDirectory, Directory.GetCurrentDirectory() })
        {
            for (var dir = new DirectoryInfo(start); dir is not null; dir = dir.Parent)
            {
                if (File.Exists(Path.Combine(dir.FullName, "Harness.sln")))
                {
                    return dir.FullName;
                }
            }
        }

        return Directory.GetCurrentDirectory();
    }
}

/// <summary>Manifests the stand-in cannot run as written: the message names the object and the field (exit 2).</summary>
internal sealed class ManifestException(string message) : Exception(message);
