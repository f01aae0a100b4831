using Harness.KubeletStandIn.Manifests;

namespace Harness.KubeletStandIn.Tests.Tooling;

/// <summary>Parses test manifests with the stand-in's own strict reader.</summary>
internal static class Yaml
{
    public static ManifestSet Parse(string yaml) => ManifestSet.Parse(yaml);

    /// <summary>A Job running harness/runner:local with <paramref name="args"/> and, optionally, one env var.</summary>
    public static string Job(string name, string args, string? envName = null, string? envValue = null, string completionMode = "NonIndexed", int completions = 1, int? deadline = null) => $"""
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: {name}
        spec:
          completionMode: {completionMode}
          completions: {completions}
          parallelism: {completions}
        {(deadline is { } d ? $"  activeDeadlineSeconds: {d}" : "")}
          template:
            spec:
              restartPolicy: Never
              containers:
                - name: main
                  image: harness/runner:local
                  args: {args}
        {(envName is null ? "" : $"          env: [{{name: {envName}, value: \"{envValue}\"}}]")}
        """;
}
