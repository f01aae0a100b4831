using System.Buffers.Binary;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Sockets;
using System.Text;
using Harness.KubeletStandIn.Runtime;
using k8s.Models;

namespace Harness.KubeletStandIn.Probes;

/// <summary>One probe attempt's outcome and, on failure, why (as the kubelet's event would say it).</summary>
internal sealed record ProbeResult(bool Success, string Detail)
{
    public static readonly ProbeResult Ok = new(true, "");

    public static ProbeResult Failed(string detail) => new(false, detail);
}

/// <summary>
/// The four probe handlers, run from the host against the pod's IP on the run's network, as the kubelet runs them
/// from the node: httpGet (200–399 succeeds; redirects are not followed), tcpSocket (a connection opens), grpc
/// (grpc.health.v1.Health/Check answers SERVING), exec (docker exec exits 0). Each attempt is bounded by the probe's
/// timeoutSeconds.
/// </summary>
internal sealed class ProbeChecks(DockerRuntime docker)
{
    // One handler per scheme, as the kubelet reuses its transports; no keep-alive, as the kubelet's prober sets.
    private static readonly HttpClient Http = new(new SocketsHttpHandler { AllowAutoRedirect = false, UseProxy = false, PooledConnectionLifetime = TimeSpan.Zero });
    private static readonly HttpClient Https = new(new SocketsHttpHandler
    {
        AllowAutoRedirect = false,
        UseProxy = false,
        PooledConnectionLifetime = TimeSpan.Zero,
        // The kubelet does not verify a probe's certificate either.
        SslOptions = { RemoteCertificateValidationCallback = (_, _, _, _) => true },
    });

    private static readonly HttpClient Grpc = new(new SocketsHttpHandler { UseProxy = false, PooledConnectionLifetime = TimeSpan.Zero });

    public const string UserAgent = "kube-probe/1.32 (kubelet stand-in)";

    public async Task<ProbeResult> CheckAsync(V1Probe probe, V1Container container, string podIp, string containerId, TimeSpan timeout, CancellationToken cancellationToken)
    {
        using var bounded = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        bounded.CancelAfter(timeout);
        try
        {
            if (probe.Exec is { } exec)
            {
                var code = await docker.ExecAsync(containerId, exec.Command, timeout, cancellationToken);
                return code switch
                {
                    0 => ProbeResult.Ok,
                    null => ProbeResult.Failed($"exec {string.Join(' ', exec.Command)} did not finish within {timeout.TotalSeconds:0} s"),
                    _ => ProbeResult.Failed($"exec {string.Join(' ', exec.Command)} exited {code}"),
                };
            }

            var port = probe.HttpGet?.Port ?? probe.TcpSocket?.Port;
            if ((probe.Grpc is { } g ? g.Port : ProbeSettings.ResolvePort(port, container)) is not { } number)
            {
                return ProbeResult.Failed($"port '{port?.Value}' is not a port of container {container.Name}");
            }

            if (probe.HttpGet is { } http)
            {
                return await HttpGetAsync(http, http.Host is { Length: > 0 } host ? host : podIp, number, bounded.Token);
            }

            if (probe.TcpSocket is { } tcp)
            {
                using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
                await socket.ConnectAsync(tcp.Host is { Length: > 0 } h ? h : podIp, number, bounded.Token);
                return ProbeResult.Ok;
            }

            return await GrpcAsync(podIp, number, probe.Grpc!.Service, bounded.Token);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return ProbeResult.Failed($"timeout after {timeout.TotalSeconds:0} s");
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            // Whatever fails an attempt (a refused connection, an engine error on exec) is a failed probe, never a crash of the prober.
            return ProbeResult.Failed(ex.GetBaseException().Message);
        }
    }

    private static async Task<ProbeResult> HttpGetAsync(V1HTTPGetAction action, string host, int port, CancellationToken cancellationToken)
    {
        var scheme = string.Equals(action.Scheme, "HTTPS", StringComparison.OrdinalIgnoreCase) ? "https" : "http";
        var path = string.IsNullOrEmpty(action.Path) ? "/" : action.Path.StartsWith('/') ? action.Path : "/" + action.Path;
        using var request = new HttpRequestMessage(HttpMethod.Get, new Uri($"{scheme}://{Bracket(host)}:{port}{path}"));
        request.Headers.ConnectionClose = true;
        request.Headers.UserAgent.ParseAdd(UserAgent);
        request.Headers.Accept.Add(new MediaTypeWithQualityHeaderValue("*/*"));
        foreach (var header in action.HttpHeaders ?? [])
        {
            request.Headers.Remove(header.Name);
            request.Headers.TryAddWithoutValidation(header.Name, header.Value);
        }

        using var response = await (scheme == "https" ? Https : Http).SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        var code = (int)response.StatusCode;
        return code is >= 200 and < 400 ? ProbeResult.Ok : ProbeResult.Failed($"HTTP probe failed with statuscode: {code}");
    }

    /// <summary>
    /// grpc.health.v1.Health/Check over h2c, written out: a request is one length-prefixed HealthCheckRequest
    /// (field 1, the service name), the answer one HealthCheckResponse whose field 1 is the status (1 = SERVING).
    /// Ten lines of wire format instead of a generated client and another package.
    /// </summary>
    private static async Task<ProbeResult> GrpcAsync(string host, int port, string? service, CancellationToken cancellationToken)
    {
        var name = Encoding.UTF8.GetBytes(service ?? "");
        var message = name.Length == 0 ? [] : new byte[] { 0x0A, (byte)name.Length }.Concat(name).ToArray();
        var frame = new byte[5 + message.Length];
        BinaryPrimitives.WriteUInt32BigEndian(frame.AsSpan(1), (uint)message.Length);
        message.CopyTo(frame, 5);
        using var request = new HttpRequestMessage(HttpMethod.Post, new Uri($"http://{Bracket(host)}:{port}/grpc.health.v1.Health/Check"))
        {
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
            Content = new ByteArrayContent(frame),
        };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/grpc");
        request.Headers.TryAddWithoutValidation("te", "trailers");
        request.Headers.UserAgent.ParseAdd(UserAgent);
        using var response = await Grpc.SendAsync(request, cancellationToken);
        var body = await response.Content.ReadAsByteArrayAsync(cancellationToken);
        var status = Header(response.TrailingHeaders, "grpc-status") ?? Header(response.Headers, "grpc-status");
        if (!response.IsSuccessStatusCode || status != "0")
        {
            return ProbeResult.Failed($"gRPC health check failed: HTTP {(int)response.StatusCode}, grpc-status {status ?? "none"} {Header(response.TrailingHeaders, "grpc-message") ?? Header(response.Headers, "grpc-message")}".TrimEnd());
        }

        var serving = body.Length >= 7 && body[5] == 0x08 && body[6] == 1;
        return serving ? ProbeResult.Ok : ProbeResult.Failed("gRPC health check: the service is not SERVING");
    }

    private static string? Header(HttpHeaders headers, string name) =>
        headers.TryGetValues(name, out var values) ? values.FirstOrDefault() : null;

    private static string Bracket(string host) => host.Contains(':', StringComparison.Ordinal) ? $"[{host}]" : host;
}
