using System.Buffers;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.ServiceModel;
using Harness.LoadTests.Clients.Http1;
using Harness.Metrics;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients.Soap;

/// <summary>
/// Posts envelopes to one SOAP endpoint. Over plain HTTP (and <c>unix://</c>) it writes HTTP/1.1 itself
/// (<see cref="Http1Client"/>: a kept-alive connection per call in flight, each action's head built once, the reply
/// read in the connection's own buffer); over HTTPS it posts with one <see cref="HttpClient"/>, the reply read into a
/// pooled buffer. Either way the reader gets the reply as a span. A fault is looked for in every reply (some servers
/// fault with 200) and counted as <see cref="SoapFailureNames"/> says; a reply other than 2xx without one is counted
/// by its status (<c>http-503</c>); transport failures surface as HttpRequestException, a timeout as
/// TaskCanceledException (FailureStatus names them). The timeout (<c>--timeout</c>) covers the whole exchange, as the
/// WCF client's does, and a connection lost mid-reply fails the call. A reply is held whole, since a fault's code lies
/// in its body and the lean client reads its figures there, but never past <c>maxReplySize</c>: a longer one, or a head
/// past the HTTP client's bounds, fails the call as an HttpRequestException of ConfigurationLimitExceeded
/// (<c>response-too-large</c>), under either failure naming.
/// </summary>
internal sealed class SoapTransport : IDisposable
{
    /// <summary>The largest reply body taken by default, as Grpc.Net.Client's largest message (4 MiB).</summary>
    public const int DefaultMaxReplySize = Http1ResponseReader.DefaultMaxBodySize;

    private const int FirstBufferSize = 4096;
    private readonly Http1Client? _http1;
    private readonly HttpClient? _https;
    private readonly Uri _endpoint;
    private readonly SoapVersion _version;
    private readonly IReadOnlyList<KeyValuePair<string, string>> _headers;
    private readonly SoapFailureNames _names;

    /// <param name="headers">Extra HTTP headers of every call (<c>--metadata</c>).</param>
    /// <param name="timeout">A call's whole time (<c>--timeout</c>; <see cref="CallTimeouts.Default"/>, BasicHttpBinding's send timeout, when null).</param>
    /// <param name="maxReplySize">The largest reply body taken; a longer one fails the call (<c>response-too-large</c>).</param>
    /// <param name="loggerFactory">Where the HTTP/1.1 client's connection events are logged (not HTTPS's HttpClient); nowhere when null.</param>
    /// <param name="tls">An https:// endpoint's trust and client certificate; the system's trust when null.</param>
    public SoapTransport(
        Uri endpoint, SoapVersion version, IReadOnlyList<KeyValuePair<string, string>> headers, SoapFailureNames names, TimeSpan? timeout = null,
        int maxReplySize = DefaultMaxReplySize, ILoggerFactory? loggerFactory = null, ClientTls? tls = null)
    {
        var callTimeout = timeout ?? CallTimeouts.Default;
        if (endpoint.Scheme == Uri.UriSchemeHttps)
        {
            _https = NewHttpsClient(maxReplySize, callTimeout, (tls ?? ClientTls.System).For(host: null, SslApplicationProtocol.Http11));
        }
        else
        {
            _http1 = new Http1Client(
                endpoint, callTimeout, ServerTimeTrailer.Name, names == SoapFailureNames.AsWcf ? AsWcfFailure : null, maxReplySize, loggerFactory);
        }

        _endpoint = endpoint;
        _version = version;
        _headers = headers;
        _names = names;
    }

    /// <summary>Reads a successful reply. It must not keep the span: its buffer is reused.</summary>
    public delegate T ReplyReader<out T>(ReadOnlySpan<byte> reply, TimeSpan? serverTime);

    /// <summary>The headers of an action, built once: SOAP 1.1's SOAPAction, or SOAP 1.2's action parameter.</summary>
    /// <exception cref="ArgumentException">An extra header is not one HTTP/1.1 can carry.</exception>
    public PreparedAction Prepare(string action)
    {
        var (contentType, soapAction) = _version == SoapVersion.Soap11
            ? ("text/xml; charset=utf-8", $"\"{action}\"")
            : ($"application/soap+xml; charset=utf-8; action=\"{action}\"", (string?)null);
        List<KeyValuePair<string, string>> headers = [new("Content-Type", contentType)];
        if (soapAction is not null)
        {
            headers.Add(new("SOAPAction", soapAction));
        }

        headers.AddRange(_headers);
        return new PreparedAction(contentType, soapAction, _http1?.RequestHead(headers));
    }

    /// <exception cref="CallFailedException">The reply is a fault, or its status is not 2xx.</exception>
    public Task<T> PostAsync<T>(byte[] body, PreparedAction action, ReplyReader<T> read, CancellationToken cancellationToken) =>
        _http1 is { } http1 ? PostHttp1Async(http1, body, action, read, cancellationToken) : PostHttpsAsync(body, action, read, cancellationToken);

    public void Dispose()
    {
        _http1?.Dispose();
        _https?.Dispose();
    }

    /// <summary>The status a fault is counted under.</summary>
    public static string StatusOf(SoapFaults.Fault fault, SoapFailureNames names) => names == SoapFailureNames.ByCode
        ? $"soap-fault-{fault.Code[(fault.Code.IndexOf(':') + 1)..]}"
        : fault.IsSenderFault ? "soap-fault-Client" : "soap-fault-Server";

    private Task<T> PostHttp1Async<T>(Http1Client http1, byte[] body, PreparedAction action, ReplyReader<T> read, CancellationToken cancellationToken) =>
        http1.PostAsync(
            action.Http1Head!,
            body,
            (Transport: this, Read: read),
            static (s, status, reply, serverTime) => s.Transport.Interpret(status, reply, ServerTime.FromHeader(serverTime), s.Read),
            cancellationToken);

    /// <summary>
    /// The client of an https:// endpoint. Its head is bounded by HttpClient's own MaxResponseHeadersLength (64 KiB,
    /// interim responses included), its body by <paramref name="maxReplySize"/>: the whole body is read within the
    /// timeout into a buffer that stops there (ConfigurationLimitExceeded). Its connect bound takes in the TLS handshake,
    /// so a server that never finishes one fails the call within <see cref="CallTimeouts.ConnectTimeout"/>.
    /// </summary>
    internal static HttpClient NewHttpsClient(int maxReplySize, TimeSpan timeout, SslClientAuthenticationOptions? tls = null) => new(new SocketsHttpHandler
    {
        MaxConnectionsPerServer = int.MaxValue,
        ConnectTimeout = CallTimeouts.ConnectTimeout(timeout),
        SslOptions = tls ?? new SslClientAuthenticationOptions(),
        PooledConnectionIdleTimeout = TimeSpan.FromMinutes(5),
        UseCookies = false,
        AutomaticDecompression = DecompressionMethods.None,
    })
    {
        Timeout = timeout,
        MaxResponseContentBufferSize = maxReplySize,
    };

    /// <summary>
    /// A connection lost once the request was under way, as the WCF client's: it wraps it so, and FailureStatus counts it
    /// as soap-communication. No connection at all (a SocketException under it) stays as it is, "connection", and so does
    /// a reply past the client's bounds, "response-too-large" (WCF's own quota would say soap-communication).
    /// </summary>
    private static Exception AsWcfFailure(HttpRequestException ex) => KeepsItsName(ex) ? ex : new CommunicationException(ex.Message, ex);

    private static bool KeepsItsName(HttpRequestException ex) =>
        ex.InnerException is SocketException || ex.HttpRequestError is HttpRequestError.ConfigurationLimitExceeded or HttpRequestError.SecureConnectionError;

    private async Task<T> PostHttpsAsync<T>(byte[] body, PreparedAction action, ReplyReader<T> read, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, _endpoint) { Content = new ByteArrayContent(body) };

        // Without validation: the values are fixed and well formed, and parsing them per call is most of a header's cost.
        request.Content.Headers.TryAddWithoutValidation("Content-Type", action.ContentType);
        if (action.SoapActionHeader is { } soapAction)
        {
            request.Headers.TryAddWithoutValidation("SOAPAction", soapAction);
        }

        foreach (var (name, value) in _headers)
        {
            request.Headers.TryAddWithoutValidation(name, value);
        }

        using var response = await SendAsync(request, cancellationToken);
        var (buffer, length) = await ReadAsync(response, cancellationToken);
        try
        {
            var serverTime = response.Headers.NonValidated.TryGetValues(ServerTimeTrailer.Name, out var values)
                ? ServerTime.FromHeader(values.ToString())
                : null;
            return Interpret((int)response.StatusCode, buffer.AsSpan(0, length), serverTime, read);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private T Interpret<T>(int status, ReadOnlySpan<byte> reply, TimeSpan? serverTime, ReplyReader<T> read)
    {
        if (reply.IndexOf("Fault"u8) >= 0 && SoapFaults.Read(reply) is { } fault)
        {
            throw new CallFailedException(StatusOf(fault, _names), $"{fault.Code}: {fault.Reason}");
        }

        return status is >= 200 and <= 299
            ? read(reply, serverTime)
            : throw new CallFailedException($"http-{status}", $"HTTP {status} {(HttpStatusCode)status}");
    }

    private async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        try
        {
            return await _https!.SendAsync(request, cancellationToken);
        }
        catch (HttpRequestException ex) when (_names == SoapFailureNames.AsWcf && !KeepsItsName(ex))
        {
            throw AsWcfFailure(ex);
        }
    }

    /// <summary>The whole body, which HttpClient has already read within its bound, into a pooled buffer, sized by Content-Length when the server gives it.</summary>
    private static async Task<(byte[] Buffer, int Length)> ReadAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        var expected = response.Content.Headers.ContentLength is { } n and > 0 and < int.MaxValue ? (int)n + 1 : FirstBufferSize;
        var buffer = ArrayPool<byte>.Shared.Rent(expected);
        var length = 0;
        try
        {
            await using var stream = await response.Content.ReadAsStreamAsync(cancellationToken);
            while (true)
            {
                if (length == buffer.Length)
                {
                    var larger = ArrayPool<byte>.Shared.Rent(buffer.Length * 2);
                    buffer.AsSpan(0, length).CopyTo(larger);
                    ArrayPool<byte>.Shared.Return(buffer);
                    buffer = larger;
                }

                var read = await stream.ReadAsync(buffer.AsMemory(length), cancellationToken);
                if (read == 0)
                {
                    return (buffer, length);
                }

                length += read;
            }
        }
        catch
        {
            ArrayPool<byte>.Shared.Return(buffer);
            throw;
        }
    }
}

/// <summary>How <see cref="SoapTransport"/> names a reply's failures.</summary>
internal enum SoapFailureNames
{
    /// <summary>A fault by its code's local name (<c>soap-fault-Client</c>, a SOAP 1.2 subcode): a <c>--call</c>'s faults are the user's to tell apart.</summary>
    ByCode,

    /// <summary>
    /// As the WCF client's failures are counted (FailureStatus of its FaultException and CommunicationException): a
    /// sender's fault as <c>soap-fault-Client</c>, any other as <c>soap-fault-Server</c>, a connection lost mid-call
    /// as <c>soap-communication</c>.
    /// </summary>
    AsWcf,
}

/// <summary>An action's headers as <see cref="SoapTransport"/> sends them.</summary>
/// <param name="ContentType">The Content-Type (SOAP 1.2: with the action).</param>
/// <param name="SoapActionHeader">SOAP 1.1's quoted SOAPAction; null for SOAP 1.2.</param>
/// <param name="Http1Head">Over plain HTTP, the request's head with these and the extra headers (<see cref="Http1Client.RequestHead"/>).</param>
internal sealed record PreparedAction(string ContentType, string? SoapActionHeader, byte[]? Http1Head);
