using Harness.Kubernetes.Tests.Checks;
using Harness.Kubernetes.Tests.Tooling;

namespace Harness.Kubernetes.Tests;

/// <summary>
/// The checks can fail: each case breaks one thing in a throw-away overlay on top of the base (which passes, see
/// OverlayTests) and expects the violation that names it.
/// </summary>
public sealed class CheckerCanFailTests
{
    public static TheoryData<string, string, string> Breakages => new()
    {
        { "Deployment", "stub", "{op: remove, path: /spec/template/spec/securityContext/runAsNonRoot}|Deployment/stub container stub: runAsNonRoot must be true" },
        { "Deployment", "soap-iocp", "{op: replace, path: /spec/template/spec/containers/0/securityContext/capabilities/drop, value: [NET_RAW]}|capabilities must drop ALL" },
        { "Deployment", "grpc-custompool", "{op: replace, path: /spec/template/spec/containers/0/resources/limits/cpu, value: '1'}|grpc-custompool container grpc: cpu requests must equal limits" },
        { "Deployment", "stub", "{op: remove, path: /spec/template/spec/containers/0/livenessProbe}|Deployment/stub container stub: no liveness probe" },
        { "Deployment", "soap-threadpool", "{op: replace, path: /spec/template/spec/containers/0/readinessProbe/failureThreshold, value: 3}|the readiness probe gives up after 15 s" },
        { "Deployment", "soap-custompool", "{op: replace, path: /spec/template/spec/containers/0/env/0/value, value: iocp}|Scheduling__Mode 'iocp' differs from its harness/mode label 'custompool'" },
        { "Deployment", "grpc-iocp", "{op: replace, path: /spec/template/spec/containers/0/env/3/value, value: '6083'}|containerPorts [5082, 5083, 5084] differ from Listen__Port/Listen__AdminPort/Listen__MetricsPort [5082, 5084, 6083]" },
        { "Deployment", "soap-threadpool", "{op: remove, path: /spec/template/spec/containers/0/env/3}|Deployment/soap-threadpool container soap: no Listen__MetricsPort" },
        { "Deployment", "grpc-custompool", "{op: replace, path: /spec/template/spec/containers/0/readinessProbe/httpGet/port, value: admin}|grpc-custompool container grpc: the readiness probe asks port admin (Listen__AdminPort 5083), a Kestrel port" },
        { "Deployment", "soap-iocp", "{op: replace, path: /spec/template/spec/containers/0/livenessProbe/httpGet/port, value: http}|soap-iocp container soap: the liveness probe asks port http (Listen__Port 5081), a Kestrel port" },
        { "Deployment", "grpc-threadpool", "{op: replace, path: /spec/template/spec/containers/0/livenessProbe, value: {grpc: {port: 5082}, periodSeconds: 20, timeoutSeconds: 10, failureThreshold: 15}}|grpc-threadpool container grpc: the liveness probe asks port 5082 (Listen__Port 5082), a Kestrel port" },
        { "Deployment", "soap-custompool", "{op: replace, path: /spec/template/spec/containers/0/readinessProbe, value: {tcpSocket: {port: metrics}, periodSeconds: 5, timeoutSeconds: 5, failureThreshold: 60}}|the readiness probe on Listen__MetricsPort 5084 must be an httpGet of /healthz" },
        { "Deployment", "stub", "{op: replace, path: /spec/template/spec/containers/0/env/0/value, value: 127.0.0.1}|Listen__Address must be 0.0.0.0" },
        { "Deployment", "soap-iocp", "{op: replace, path: /spec/template/spec/automountServiceAccountToken, value: true}|automountServiceAccountToken must be false" },
        { "Deployment", "stub", "{op: add, path: /spec/template/spec/volumes/-, value: {name: host, hostPath: {path: /var}}}|volume host is HostPath" },
        { "Service", "soap-iocp", "{op: replace, path: /spec/selector/harness~1mode, value: threadpool}|(mode iocp) reaches Deployment/soap-threadpool, labelled mode 'threadpool'" },
        { "Service", "grpc-threadpool", "{op: remove, path: /spec/selector/harness~1mode}|Service/grpc-threadpool: its selector matches 3 pod templates" },
        { "Service", "stub", "{op: replace, path: /spec/ports/0/targetPort, value: 8080}|Service/stub: port http targets '8080'" },
        { "Service", "soap-iocp", "{op: remove, path: /spec/ports/1}|(mode iocp): metrics at http://soap-iocp:5084/ reach nothing port none" },
        { "Service", "grpc-custompool", "{op: remove, path: /spec/ports/2}|Deployment/grpc-custompool container grpc: no Service port reaches its Listen__MetricsPort 5084" },
        { "Job", "runner", "{op: replace, path: /spec/template/spec/containers/0/args/6, value: '--target=grpc=http://grpc-threadpool:5082,metrics=http://grpc-threadpool:5083,mode=threadpool'}|reach Deployment/grpc-threadpool port 5083, not Deployment/grpc-threadpool's dedicated /metrics port Listen__MetricsPort 5084" },
        { "Job", "runner", "{op: remove, path: /spec/template/spec/initContainers/0/args/4}|Job/runner: wait-for-services waits for" },
        { "Job", "runner", "{op: replace, path: /spec/template/spec/initContainers/0/securityContext/readOnlyRootFilesystem, value: false}|Job/runner container wait-for-services: readOnlyRootFilesystem must be true" },
        { "Job", "runner", "{op: add, path: /spec/template/spec/containers/0/args/-, value: '--assert=p99 under 3s'}|Job/runner container runner: Invalid threshold" },
        { "Job", "runner", "{op: replace, path: /spec/template/spec/containers/0/args/6, value: --output=/tmp}|--output /tmp is not on a writable PersistentVolumeClaim mount" },
        { "Job", "runner", "{op: replace, path: /spec/activeDeadlineSeconds, value: 300}|activeDeadlineSeconds 300 does not fit" },
        { "Job", "collect", "{op: remove, path: /spec/backoffLimit}|Job/collect: backoffLimit and activeDeadlineSeconds must be set" },
        { "Namespace", "harness", "{op: replace, path: /metadata/labels/pod-security.kubernetes.io~1enforce, value: baseline}|pod-security.kubernetes.io/enforce must be restricted" },
        { "Deployment", "grpc-iocp", "{op: remove, path: /spec/template/metadata/annotations}|Deployment/grpc-iocp: serves /metrics on port 5084; its pod needs prometheus.io/scrape" },
        { "Job", "runner", "{op: replace, path: /spec/template/metadata/annotations/prometheus.io~1port, value: '9090'}|Job/runner: serves /metrics on port 9464; its pod needs" },
        { "Job", "collect", "{op: add, path: /spec/template/metadata/annotations, value: {prometheus.io/scrape: 'true'}}|Job/collect: serves no /metrics, yet its pod is annotated" },
        { "Job", "runner", "{op: replace, path: /spec/template/spec/containers/0/ports/0/containerPort, value: 9465}|Job/runner container runner: containerPorts [9465] differ from the ports its arguments open (--listen, --metrics-port) [9464]" },
    };

    /// <summary>The Prometheus operator's monitors, broken on top of overlays/monitoring.</summary>
    public static TheoryData<string, string, string> MonitorBreakages => new()
    {
        { "PodMonitor", "harness-load", "{op: replace, path: /spec/selector/matchExpressions/0/values, value: [load, service]}|Deployment/soap-iocp: scraped by a ServiceMonitor and a PodMonitor alike" },
        { "PodMonitor", "harness-load", "{op: replace, path: /spec/podMetricsEndpoints/0/port, value: http}|PodMonitor/harness-load: endpoint port 'http' path /metrics does not reach Job/runner's /metrics (port 9464)" },
        { "ServiceMonitor", "harness-services", "{op: replace, path: /spec/endpoints/0/port, value: http}|ServiceMonitor/harness-services: endpoint port 'http' path /metrics does not reach the /metrics of Service/soap-iocp's pods" },
        { "ServiceMonitor", "harness-stub", "{op: replace, path: /spec/selector/matchLabels/app.kubernetes.io~1name, value: stubb}|ServiceMonitor/harness-stub: selects no Service" },
    };

    [Theory]
    [MemberData(nameof(Breakages))]
    public void Breaking_OneThing_IsReported(string kind, string name, string patchAndExpected) =>
        AssertReported("base", kind, name, patchAndExpected);

    [Theory]
    [MemberData(nameof(MonitorBreakages))]
    public void Breaking_AMonitor_IsReported(string kind, string name, string patchAndExpected) =>
        AssertReported("overlays/monitoring", kind, name, patchAndExpected);

    private static void AssertReported(string kustomization, string kind, string name, string patchAndExpected)
    {
        // Arrange
        // One JSON 6902 operation, in YAML flow style.
        var (patch, expected) = (patchAndExpected.Split('|')[0], patchAndExpected.Split('|')[1]);
        using var overlay = TempOverlay.Over(kustomization, $"""
            patches:
              - target:
                  kind: {kind}
                  name: {name}
                patch: |-
                  - {patch}
            """);

        // Act
        var violations = StackChecks.All(overlay.Render());

        // Assert
        Assert.True(violations.Any(v => v.Contains(expected, StringComparison.Ordinal)),
            $"expected a violation containing \"{expected}\"; got:{Environment.NewLine}{string.Join(Environment.NewLine, violations)}");
    }
}
