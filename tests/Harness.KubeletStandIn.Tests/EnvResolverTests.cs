using Harness.KubeletStandIn.Pods;
using Harness.KubeletStandIn.Tests.Tooling;

namespace Harness.KubeletStandIn.Tests;

public sealed class EnvResolverTests
{
    private static readonly PodFacts Pod = new(
        "ns", "job-1-abcde", "uid-1",
        new Dictionary<string, string> { ["app"] = "agent" },
        new Dictionary<string, string> { [PodIdentity.CompletionIndexKey] = "1" },
        "10.0.0.5", "10.0.0.1", null);

    private const string Manifests = """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: settings, namespace: ns}
        data: {mode: iocp, other: x}
        ---
        apiVersion: batch/v1
        kind: Job
        metadata: {name: job, namespace: ns}
        spec:
          template:
            spec:
              restartPolicy: Never
              containers:
                - name: main
                  image: harness/runner:local
                  resources: {limits: {cpu: 250m, memory: 64Mi}}
                  envFrom: [{configMapRef: {name: settings}, prefix: CM_}]
                  env:
                    - {name: INDEX, valueFrom: {fieldRef: {fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}}
                    - {name: NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
                    - {name: NS, valueFrom: {fieldRef: {fieldPath: metadata.namespace}}}
                    - {name: APP, valueFrom: {fieldRef: {fieldPath: "metadata.labels['app']"}}}
                    - {name: IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}
                    - {name: MODE, valueFrom: {configMapKeyRef: {name: settings, key: mode}}}
                    - {name: MISSING, valueFrom: {configMapKeyRef: {name: settings, key: nope, optional: true}}}
                    - {name: CPU, valueFrom: {resourceFieldRef: {resource: limits.cpu}}}
                    - {name: MEM, valueFrom: {resourceFieldRef: {resource: limits.memory, divisor: 1Mi}}}
                    - {name: WHO, value: "$(NAME)@$(NS) $(LATER) $$(NAME)"}
                    - {name: LATER, value: later}
                    - {name: CM_other, value: overridden}
        """;

    [Fact]
    public void Resolve_BuildsTheEnvironmentAsTheKubeletDoes()
    {
        var manifests = Yaml.Parse(Manifests);
        var container = manifests.Jobs.Single().Spec.Template.Spec.Containers[0];
        var env = EnvResolver.Resolve(container, Pod, manifests).ToDictionary(p => p.Key, p => p.Value);

        Assert.Equal("1", env["INDEX"]);
        Assert.Equal("job-1-abcde", env["NAME"]);
        Assert.Equal("ns", env["NS"]);
        Assert.Equal("agent", env["APP"]);
        Assert.Equal("10.0.0.5", env["IP"]);
        Assert.Equal("iocp", env["MODE"]);
        Assert.False(env.ContainsKey("MISSING"));
        Assert.Equal("1", env["CPU"]);
        Assert.Equal("64", env["MEM"]);
        // Only earlier entries expand; a later one and an escaped one stay as written.
        Assert.Equal("job-1-abcde@ns $(LATER) $(NAME)", env["WHO"]);
        Assert.Equal("iocp", env["CM_mode"]);
        Assert.Equal("overridden", env["CM_other"]);
    }

    [Fact]
    public void Resolve_AMissingConfigMapKeyThatIsNotOptional_IsAConfigError()
    {
        var manifests = Yaml.Parse(Manifests.Replace("key: nope, optional: true", "key: nope", StringComparison.Ordinal));
        var container = manifests.Jobs.Single().Spec.Template.Spec.Containers[0];
        var error = Assert.Throws<PodConfigException>(() => EnvResolver.Resolve(container, Pod, manifests));
        Assert.Contains("has no key \"nope\"", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("metadata.uid", "uid-1")]
    [InlineData("spec.nodeName", PodFacts.NodeName)]
    [InlineData("status.hostIP", "10.0.0.1")]
    [InlineData("metadata.labels['absent']", "")]
    [InlineData("metadata.labels", "app=\"agent\"")]
    public void Field_ReadsThePodsFacts(string path, string expected) => Assert.Equal(expected, EnvResolver.Field(path, Pod));

    [Fact]
    public void Field_AnUnknownPath_IsRefused() => Assert.Throws<PodConfigException>(() => EnvResolver.Field("spec.schedulerName", Pod));
}
