using System.Buffers.Binary;
using System.Net;
using System.Net.Http.Headers;

namespace Harness.Services.Tests;

/// <summary>
/// Raw gRPC over HTTP/2 with prior knowledge, for what a gRPC client library would never send: frames, lengths and
/// headers of the test's choosing. One HttpClient, so its requests share one connection, as a channel's calls do.
/// </summary>
public sealed class GrpcWire(Uri address) : IDisposable
{
    private readonly HttpClient _http = new(new SocketsHttpHandler());

    /// <summary>A gRPC message: the compressed flag, the length (big-endian) and the bytes.</summary>
    public static byte[] Frame(ReadOnlySpan<byte> message, byte flag = 0, uint? length = null)
    {
        var frame = new byte[5 + message.Length];
        frame[0] = flag;
        BinaryPrimitives.WriteUInt32BigEndian(frame.AsSpan(1), length ?? (uint)message.Length);
        message.CopyTo(frame.AsSpan(5));
        return frame;
    }

    /// <summary>POSTs <paramref name="body"/> to <paramref name="path"/> as <c>application/grpc</c> unless <paramref name="headers"/> says otherwise.</summary>
    public async Task<WireResponse> SendAsync(string path, byte[] body, Action<HttpRequestMessage>? headers = null, CancellationToken cancellationToken = default)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, new Uri(address, path))
        {
            Content = new ByteArrayContent(body),
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/grpc");
        request.Headers.TE.Add(new TransferCodingWithQualityHeaderValue("trailers"));
        headers?.Invoke(request);

        using var response = await _http.SendAsync(request, cancellationToken);
        var reply = await response.Content.ReadAsByteArrayAsync(cancellationToken);
        return new WireResponse((int)response.StatusCode, Header(response, "grpc-status"), Header(response, "grpc-message") is { } m ? Uri.UnescapeDataString(m) : null, reply.Length);
    }

    public void Dispose() => _http.Dispose();

    // A status comes in the trailers, or in the headers of a trailers-only response.
    private static string? Header(HttpResponseMessage response, string name) =>
        response.TrailingHeaders.TryGetValues(name, out var trailer) ? trailer.Single()
        : response.Headers.TryGetValues(name, out var header) ? header.Single()
        : null;
}

/// <summary>An HTTP status, the gRPC status and message (percent-decoded) if any, and the size of the reply's body.</summary>
public sealed record WireResponse(int HttpStatus, string? GrpcStatus, string? GrpcMessage, int BodyLength);
