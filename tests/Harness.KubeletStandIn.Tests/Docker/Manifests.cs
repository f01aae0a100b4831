namespace Harness.KubeletStandIn.Tests.Docker;

/// <summary>The tests' own manifests: the harness images with small commands, restricted like the real ones.</summary>
internal static class Manifests
{
    public const string Restricted = "{runAsNonRoot: true, runAsUser: 1654, runAsGroup: 1654, fsGroup: 1654, seccompProfile: {type: RuntimeDefault}}";
    public const string Locked = "{allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: {drop: [ALL]}}";

    /// <summary>The stub (GET /healthz on 5080), its Service, and readiness on the named port.</summary>
    public static string Stub(string liveness = "") => $$$"""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: stub}
        spec:
          replicas: 1
          selector: {matchLabels: {app: stub}}
          template:
            metadata: {labels: {app: stub}}
            spec:
              securityContext: {{{Restricted}}}
              containers:
                - name: stub
                  image: harness/stub:local
                  env: [{name: Listen__Address, value: 0.0.0.0}, {name: Listen__Port, value: "5080"}]
                  ports: [{name: http, containerPort: 5080}]
                  readinessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 1}
        {{{liveness}}}
                  resources: {limits: {cpu: 500m, memory: 256Mi}}
                  securityContext: {{{Locked}}}
                  volumeMounts: [{name: tmp, mountPath: /tmp}]
              volumes: [{name: tmp, emptyDir: {sizeLimit: 16Mi}}]
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: stub}
        spec:
          selector: {app: stub}
          ports: [{name: http, port: 5080, targetPort: http}]
        """;

    /// <summary>A Job of one bash script (args after $(VAR) expansion), restricted, with a /tmp emptyDir.</summary>
    public static string Job(string name, string script, string spec = "", string labels = "{}", string volumes = "", string mounts = "") => $$$"""
        apiVersion: batch/v1
        kind: Job
        metadata: {name: {{{name}}}, labels: {{{labels}}}}
        spec:
          backoffLimit: 0
        {{{spec}}}
          template:
            spec:
              restartPolicy: Never
              terminationGracePeriodSeconds: 2
              securityContext: {{{Restricted}}}
              containers:
                - name: main
                  image: harness/runner:local
                  command: [bash, -c]
                  args:
                    - |
        {{{Indent(script, 14)}}}
                  resources: {limits: {cpu: 250m, memory: 64Mi}}
                  securityContext: {{{Locked}}}
                  volumeMounts: [{name: tmp, mountPath: /tmp}{{{mounts}}}]
              volumes: [{name: tmp, emptyDir: {}}{{{volumes}}}]
        """;

    /// <summary>A bash loop that asks the stub's /healthz by a name until it answers (bounded), printing the status line.</summary>
    public static string AskStub(string host) =>
        $"for i in $(seq 60); do (exec 3<>/dev/tcp/{host}/5080 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && head -n 1 <&3) 2>/dev/null && break; sleep 0.5; done";

    private static string Indent(string text, int spaces) =>
        string.Join('\n', text.Split('\n').Select(l => new string(' ', spaces) + l));
}
