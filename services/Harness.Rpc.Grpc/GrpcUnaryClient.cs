using System.Buffers;
using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using Google.Protobuf;
using Harness.Rpc.Grpc.Internal;

namespace Harness.Rpc.Grpc;

/// <summary>
/// Makes unary gRPC calls over HTTP/2 (cleartext with prior knowledge for <c>http://</c> addresses): the
/// counterpart of a <c>GrpcChannel</c> plus a generated client's unary methods.
/// </summary>
/// <remarks>
/// Thread-safe; share one instance per server. Every failed call throws an <see cref="RpcException"/> whose
/// status follows grpc-dotnet's client: the server's <c>grpc-status</c> when it sent one, otherwise one mapped
/// from the HTTP status (doc/http-grpc-status-mapping.md), the transport error, or the caller's cancellation.
/// </remarks>
public sealed class GrpcUnaryClient : IDisposable
{
    private const string UserAgent = "grpc-harness-wire/1.0";

    // Most responses fit; a larger one rents a buffer of its own size.
    private const int InitialReadBufferSize = 4096;

    private readonly HttpClient _httpClient;
    private readonly Uri _address;
    private readonly int? _maxReceiveMessageSize;
    private readonly ConcurrentDictionary<(string Service, string Method), Uri> _methodUris = new();
    private bool _disposed;

    /// <param name="address">The server's base address, such as <c>http://127.0.0.1:5000</c>.</param>
    public GrpcUnaryClient(Uri address, GrpcClientOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(address);
        if (!address.IsAbsoluteUri || (address.Scheme != Uri.UriSchemeHttp && address.Scheme != Uri.UriSchemeHttps))
        {
            throw new ArgumentException("The address must be an absolute http:// or https:// URI.", nameof(address));
        }

        options ??= new GrpcClientOptions();
        _maxReceiveMessageSize = options.MaxReceiveMessageSize;

        // A base path must end with '/' or resolving the method path against it would drop its last segment.
        _address = address.AbsolutePath.EndsWith('/') ? address : new Uri(address.AbsoluteUri + "/");

        var handler = options.HttpHandler ?? CreateDefaultHandler();
        _httpClient = new HttpClient(handler, disposeHandler: options.HttpHandler is null)
        {
            DefaultRequestVersion = HttpVersion.Version20,
            DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,

            // Deadlines and cancellation tokens bound calls; HttpClient's own 100 s default would cut long ones.
            Timeout = Timeout.InfiniteTimeSpan,
        };
    }

    /// <summary>Calls <c>/{serviceFullName}/{methodName}</c> and returns its response.</summary>
    /// <param name="deadline">
    /// When the call must be over. It is sent as <c>grpc-timeout</c> and enforced locally; a passed deadline
    /// fails at once with <see cref="GrpcStatusCode.DeadlineExceeded"/>. <see langword="null"/> or
    /// <see cref="DateTime.MaxValue"/> for none.
    /// </param>
    /// <param name="cancellationToken">Cancels the call; it then fails with <see cref="GrpcStatusCode.Cancelled"/>.</param>
    /// <exception cref="RpcException">The call ended with a status other than OK.</exception>
    public async Task<TResponse> CallAsync<TRequest, TResponse>(
        string serviceFullName,
        string methodName,
        TRequest request,
        DateTime? deadline = null,
        CancellationToken cancellationToken = default)
        where TRequest : IMessage<TRequest>
        where TResponse : IMessage<TResponse>, new()
    {
        ArgumentException.ThrowIfNullOrEmpty(serviceFullName);
        ArgumentException.ThrowIfNullOrEmpty(methodName);
        ArgumentNullException.ThrowIfNull(request);
        ObjectDisposedException.ThrowIf(_disposed, this);

        TimeSpan? timeout = null;
        if (deadline is { } d && d != DateTime.MaxValue)
        {
            var remaining = d.ToUniversalTime() - DateTime.UtcNow;
            if (remaining <= TimeSpan.Zero)
            {
                throw new RpcException(GrpcStatusCode.DeadlineExceeded, "Deadline Exceeded");
            }

            timeout = remaining;
        }

        if (cancellationToken.IsCancellationRequested)
        {
            throw new RpcException(GrpcStatusCode.Cancelled, "Call canceled by the client.");
        }

        // Only calls with a deadline pay for a linked source.
        using var deadlineCts = timeout is null ? null : CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var callToken = cancellationToken;
        if (deadlineCts is not null)
        {
            deadlineCts.CancelAfter(timeout!.Value);
            callToken = deadlineCts.Token;
        }

        using var httpRequest = new HttpRequestMessage(HttpMethod.Post, GetMethodUri(serviceFullName, methodName))
        {
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
            Content = new UnaryRequestContent(request),
        };
        var headers = httpRequest.Headers;

        // te: trailers tells proxies the client understands trailers; some servers reject calls without it.
        headers.TryAddWithoutValidation("te", "trailers");
        headers.TryAddWithoutValidation("user-agent", UserAgent);
        if (timeout is not null)
        {
            headers.TryAddWithoutValidation(GrpcProtocol.TimeoutHeader, GrpcProtocol.FormatTimeout(timeout.Value));
        }

        try
        {
            using var httpResponse = await _httpClient.SendAsync(httpRequest, HttpCompletionOption.ResponseHeadersRead, callToken).ConfigureAwait(false);
            return await ReadResponseAsync<TResponse>(httpResponse, callToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException ex) when (callToken.IsCancellationRequested)
        {
            throw cancellationToken.IsCancellationRequested
                ? new RpcException(GrpcStatusCode.Cancelled, "Call canceled by the client.", ex)
                : new RpcException(GrpcStatusCode.DeadlineExceeded, "Deadline Exceeded", ex);
        }
        catch (Exception ex) when (ex is HttpRequestException or IOException)
        {
            throw CreateTransportException(ex);
        }
    }

    public void Dispose()
    {
        _disposed = true;
        _httpClient.Dispose();
    }

    private static SocketsHttpHandler CreateDefaultHandler() => new()
    {
        // One HTTP/2 connection caps concurrent streams (Kestrel allows 100); more connections lift the cap.
        EnableMultipleHttp2Connections = true,

        // Recycled now and then so a long load test re-resolves and re-balances across server instances.
        PooledConnectionLifetime = TimeSpan.FromMinutes(5),
        ConnectTimeout = TimeSpan.FromSeconds(10),
        UseProxy = false,
        UseCookies = false,
        AllowAutoRedirect = false,
        AutomaticDecompression = DecompressionMethods.None,
    };

    private Uri GetMethodUri(string serviceFullName, string methodName) =>
        _methodUris.GetOrAdd(
            (serviceFullName, methodName),
            static (key, address) => new Uri(address, key.Service + "/" + key.Method),
            _address);

    private async Task<TResponse> ReadResponseAsync<TResponse>(HttpResponseMessage httpResponse, CancellationToken cancellationToken)
        where TResponse : IMessage<TResponse>, new()
    {
        // A status in the headers is a trailers-only response and outranks the HTTP status.
        if (TryGetStatus(httpResponse.Headers, out var headerCode, out var headerDetail))
        {
            throw headerCode == GrpcStatusCode.OK
                ? new RpcException(GrpcStatusCode.Internal, "Failed to deserialize response message.")
                : new RpcException(headerCode, headerDetail);
        }

        if (httpResponse.Version < HttpVersion.Version20)
        {
            throw new RpcException(GrpcStatusCode.Internal, $"Bad gRPC response. Response protocol downgraded to HTTP/{httpResponse.Version.ToString(2)}.");
        }

        if (httpResponse.StatusCode != HttpStatusCode.OK)
        {
            var statusCode = (int)httpResponse.StatusCode;
            throw new RpcException(MapHttpStatus(statusCode), "Bad gRPC response. HTTP status code: " + statusCode.ToString(CultureInfo.InvariantCulture));
        }

        var contentType = httpResponse.Content.Headers.ContentType;
        if (contentType is null)
        {
            throw new RpcException(GrpcStatusCode.Cancelled, "Bad gRPC response. Response did not have a content-type header.");
        }

        if (!GrpcProtocol.IsGrpcContentType(contentType.MediaType))
        {
            throw new RpcException(GrpcStatusCode.Cancelled, "Bad gRPC response. Invalid content-type value: " + contentType);
        }

        var stream = await httpResponse.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
        var (hasMessage, message) = await ReadSingleMessageAsync<TResponse>(httpResponse, stream, cancellationToken).ConfigureAwait(false);

        // Trailers are complete once the body has been read to its end.
        if (!TryGetStatus(httpResponse.TrailingHeaders, out var code, out var detail))
        {
            throw new RpcException(GrpcStatusCode.Cancelled, "No grpc-status found on response.");
        }

        if (code != GrpcStatusCode.OK)
        {
            throw new RpcException(code, detail);
        }

        if (!hasMessage)
        {
            throw new RpcException(GrpcStatusCode.Internal, "Failed to deserialize response message.");
        }

        return message!;
    }

    private async ValueTask<(bool HasMessage, TResponse? Message)> ReadSingleMessageAsync<TResponse>(HttpResponseMessage httpResponse, Stream stream, CancellationToken cancellationToken)
        where TResponse : IMessage<TResponse>, new()
    {
        var buffer = ArrayPool<byte>.Shared.Rent(InitialReadBufferSize);
        try
        {
            var headerBytes = await stream.ReadAtLeastAsync(buffer.AsMemory(0, GrpcProtocol.FrameHeaderSize), GrpcProtocol.FrameHeaderSize, throwOnEndOfStream: false, cancellationToken).ConfigureAwait(false);
            if (headerBytes == 0)
            {
                return (false, default);
            }

            if (headerBytes < GrpcProtocol.FrameHeaderSize)
            {
                throw new RpcException(GrpcStatusCode.Internal, "Incomplete message.");
            }

            var compressed = buffer[0];
            var length = BinaryPrimitives.ReadUInt32BigEndian(buffer.AsSpan(1));
            if (length > (uint)(_maxReceiveMessageSize ?? int.MaxValue))
            {
                throw new RpcException(GrpcStatusCode.ResourceExhausted, "Received message exceeds the maximum configured message size.");
            }

            if (compressed != 0)
            {
                throw CreateCompressionException(httpResponse, compressed);
            }

            if (length > (uint)buffer.Length)
            {
                ArrayPool<byte>.Shared.Return(buffer);
                buffer = ArrayPool<byte>.Shared.Rent((int)length);
            }

            var messageBytes = await stream.ReadAtLeastAsync(buffer.AsMemory(0, (int)length), (int)length, throwOnEndOfStream: false, cancellationToken).ConfigureAwait(false);
            if (messageBytes < length)
            {
                throw new RpcException(GrpcStatusCode.Internal, "Incomplete message.");
            }

            TResponse message;
            try
            {
                message = ParserCache<TResponse>.Parser.ParseFrom(buffer.AsSpan(0, (int)length));
            }
            catch (InvalidProtocolBufferException ex)
            {
                throw new RpcException(GrpcStatusCode.Internal, "Failed to deserialize response message.", ex);
            }

            // A unary response holds one message; reading on to the end also makes the trailers available.
            if (await stream.ReadAsync(buffer.AsMemory(0, 1), cancellationToken).ConfigureAwait(false) != 0)
            {
                throw new RpcException(GrpcStatusCode.Internal, "Additional data after the message received.");
            }

            return (true, message);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private static RpcException CreateCompressionException(HttpResponseMessage httpResponse, byte flag)
    {
        if (flag != 1)
        {
            return new RpcException(GrpcStatusCode.Internal, "Unexpected compressed flag value in message header.");
        }

        // The client never offers an encoding, so a compressed response is one it cannot read.
        return httpResponse.Headers.NonValidated.TryGetValues(GrpcProtocol.EncodingHeader, out var encoding)
            ? new RpcException(GrpcStatusCode.Unimplemented, $"Unsupported grpc-encoding value '{encoding}'. Supported encodings: {GrpcProtocol.IdentityEncoding}")
            : new RpcException(GrpcStatusCode.Internal, "Response did not include grpc-encoding value with compressed message.");
    }

    private static bool TryGetStatus(HttpHeaders headers, out GrpcStatusCode code, out string detail)
    {
        code = GrpcStatusCode.Unknown;
        detail = string.Empty;
        if (!headers.NonValidated.TryGetValues(GrpcProtocol.StatusHeader, out var statusValues))
        {
            return false;
        }

        var statusText = FirstValue(statusValues);
        if (!int.TryParse(statusText, NumberStyles.None, CultureInfo.InvariantCulture, out var statusValue))
        {
            // doc/statuscodes.md: an unparsable status is UNKNOWN at the client.
            detail = "Unexpected grpc-status value: " + statusText;
            return true;
        }

        code = (GrpcStatusCode)statusValue;
        if (headers.NonValidated.TryGetValues(GrpcProtocol.MessageHeader, out var messageValues))
        {
            detail = GrpcProtocol.PercentDecode(FirstValue(messageValues));
        }

        return true;
    }

    private static string FirstValue(HeaderStringValues values)
    {
        foreach (var value in values)
        {
            return value;
        }

        return string.Empty;
    }

    // doc/http-grpc-status-mapping.md, with 1xx as INTERNAL like grpc-dotnet.
    private static GrpcStatusCode MapHttpStatus(int statusCode) => statusCode switch
    {
        400 or 431 => GrpcStatusCode.Internal,
        401 => GrpcStatusCode.Unauthenticated,
        403 => GrpcStatusCode.PermissionDenied,
        404 => GrpcStatusCode.Unimplemented,
        429 or 502 or 503 or 504 => GrpcStatusCode.Unavailable,
        >= 100 and < 200 => GrpcStatusCode.Internal,
        _ => GrpcStatusCode.Unknown,
    };

    private static RpcException CreateTransportException(Exception ex)
    {
        // A stream reset maps through PROTOCOL-HTTP2.md's RST_STREAM table; anything else means the server
        // could not be reached or the connection broke, which is UNAVAILABLE.
        var protocolError = ex as HttpProtocolException ?? ex.InnerException as HttpProtocolException;
        if (protocolError is not null)
        {
            var code = protocolError.ErrorCode switch
            {
                0x7 => GrpcStatusCode.Unavailable,       // REFUSED_STREAM
                0x8 => GrpcStatusCode.Cancelled,         // CANCEL
                0xb => GrpcStatusCode.ResourceExhausted, // ENHANCE_YOUR_CALM
                0xc => GrpcStatusCode.PermissionDenied,  // INADEQUATE_SECURITY
                _ => GrpcStatusCode.Internal,
            };
            return new RpcException(code, $"Error reading gRPC response. {protocolError.GetType().Name}: {protocolError.Message}", ex);
        }

        var prefix = ex is HttpRequestException ? "Error starting gRPC call." : "Error reading gRPC response.";
        return new RpcException(GrpcStatusCode.Unavailable, $"{prefix} {ex.GetType().Name}: {ex.Message}", ex);
    }

    private static class ParserCache<T>
        where T : IMessage<T>, new()
    {
        public static readonly MessageParser<T> Parser = new(() => new T());
    }
}
