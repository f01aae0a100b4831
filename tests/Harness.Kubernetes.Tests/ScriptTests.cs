using Harness.Kubernetes.Tests.Tooling;

namespace Harness.Kubernetes.Tests;

/// <summary>
/// scripts/k8s-run.sh, only ever with --dry-run: it renders and prints, and never contacts a cluster. A kubectl
/// stand-in in front of the real one records every call, and refuses any but `version --client` and `kustomize`.
/// </summary>
public sealed class ScriptTests : IDisposable
{
    private readonly TempFolder _folder = new();

    private string Script => Path.Combine(Repository.Root, "scripts", "k8s-run.sh");

    private string CallLog => Path.Combine(_folder.Directory, "calls.log");

    [Theory]
    [InlineData("base", "base")]
    [InlineData("soak", "overlays/soak")]
    [InlineData("distributed", "overlays/distributed")]
    public void DryRun_PrintsTheRender_AndCallsNothingButKustomize(string overlay, string kustomization)
    {
        // Arrange
        var kubectl = RecordingKubectl();

        // Act
        var result = Run(kubectl, overlay, "--dry-run");

        // Assert
        Assert.True(result.ExitCode == 0, result.StandardError);
        Assert.Equal(Kubectl.Kustomize(Repository.Kustomization(kustomization)).TrimEnd(), result.StandardOutput.TrimEnd());
        var calls = File.ReadAllLines(CallLog);
        Assert.NotEmpty(calls);
        Assert.All(calls, call => Assert.Matches("^(version --client -o json|kustomize .+)$", call));
    }

    [Theory]
    [InlineData("nope --dry-run", "no overlay 'nope': name one of: base distributed monitoring registry soak")]
    [InlineData("base --dry-run --frob", "unknown option '--frob'; valid: --dry-run, --timeout D")]
    [InlineData("--dry-run", "OVERLAY is missing")]
    [InlineData("soak --dry-run --timeout 5x", "--timeout '5x' is not a duration")]
    [InlineData("soak distributed --dry-run", "one OVERLAY only")]
    public void BadUsage_ExitsWith2_AndSaysWhy(string arguments, string message)
    {
        // Arrange
        var kubectl = RecordingKubectl();

        // Act
        var result = Run(kubectl, arguments.Split(' '));

        // Assert
        Assert.Equal(2, result.ExitCode);
        Assert.Contains(message, result.StandardError, StringComparison.Ordinal);
        Assert.False(File.Exists(CallLog), "no kubectl call on bad usage");
    }

    [Fact]
    public void MissingKubectl_ExitsWith2_AndSaysHowToGetOne()
    {
        // Arrange, Act
        var result = Run(Path.Combine(_folder.Directory, "no-kubectl-here"), "base", "--dry-run");

        // Assert
        Assert.Equal(2, result.ExitCode);
        Assert.Contains("kubectl not found", result.StandardError, StringComparison.Ordinal);
        Assert.Contains(".ci/run", result.StandardError, StringComparison.Ordinal);
    }

    public void Dispose() => _folder.Dispose();

    private ProcessResult Run(string kubectl, params string[] arguments) =>
        ProcessRunner.Run("bash", [Script, .. arguments], TimeSpan.FromSeconds(60), environment: new Dictionary<string, string?>
        {
            ["KUBECTL"] = kubectl,
            // Nothing may read a real kubeconfig, let alone a cluster in it.
            ["KUBECONFIG"] = Path.Combine(_folder.Directory, "no-kubeconfig"),
        });

    private string RecordingKubectl()
    {
        var path = Path.Combine(_folder.Directory, "kubectl");
        File.WriteAllText(path, $$"""
            #!/usr/bin/env bash
            echo "$*" >>'{{CallLog}}'
            case "$1" in
              version | kustomize) exec '{{Kubectl.Path}}' "$@" ;;
              *) echo "kubectl stand-in: refused '$*'" >&2; exit 99 ;;
            esac
            """);
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }

        return path;
    }
}
