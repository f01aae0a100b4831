using System.Buffers;
using System.Net;
using System.Text;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Primitives;

namespace Harness.Rpc.Soap;

/// <summary>
/// Takes a request's body and its SOAP framing from HTTP, in the order CoreWCF's <c>HttpInput</c> does: is there a
/// body at all (400), its content type (415), its declared size (413), then the body itself, which a chunked request
/// may only reveal to be too large while it is read (400, as CoreWCF answers). The HTTP method plays no part, as in
/// CoreWCF: a body sent with PUT is processed like one sent with POST.
/// </summary>
internal sealed class SoapHttpInput(int maxReceivedMessageSize)
{
    private const int InitialChunkedBufferSize = 16 * 1024;

    /// <summary>
    /// Reads the body into a pooled buffer that the caller returns to <see cref="ArrayPool{T}.Shared"/>; or, when the
    /// request is rejected, no buffer and the status to answer with.
    /// </summary>
    public async Task<HttpInputResult> ReadAsync(HttpContext context)
    {
        HttpRequest request = context.Request;
        long? declared = request.ContentLength;
        if (declared == 0)
        {
            return HttpInputResult.Reject(HttpStatusCode.BadRequest, "the request has no body");
        }

        RaiseServerBodyLimit(context);
        int capacity = declared is long known
            ? (int)Math.Min(known, maxReceivedMessageSize)
            : Math.Min(InitialChunkedBufferSize, maxReceivedMessageSize);
        byte[] buffer = ArrayPool<byte>.Shared.Rent(Math.Max(capacity, 1));
        try
        {
            int length = 0;
            if (declared is null)
            {
                // Without a Content-Length, only reading tells whether there is a body, as CoreWCF's CheckForContentAsync does.
                length = await request.Body.ReadAsync(buffer, context.RequestAborted).ConfigureAwait(false);
                if (length == 0)
                {
                    return Fail(buffer, HttpInputResult.Reject(HttpStatusCode.BadRequest, "the request has no body"));
                }
            }

            if (!SoapContentType.IsSupported(request.ContentType))
            {
                return Fail(buffer, HttpInputResult.Reject(
                    HttpStatusCode.UnsupportedMediaType, $"content type '{request.ContentType}' is not '{SoapNames.ContentType}'"));
            }

            if (declared > maxReceivedMessageSize)
            {
                return Fail(buffer, HttpInputResult.Reject(
                    HttpStatusCode.RequestEntityTooLarge, $"Content-Length {declared} exceeds MaxReceivedMessageSize {maxReceivedMessageSize}"));
            }

            while (declared is null || length < declared)
            {
                // CoreWCF buffers a chunked body in a buffer of MaxBufferSize (MaxReceivedMessageSize when buffered) and
                // fails as soon as it is full, before looking for the end: a chunked body of exactly the limit is refused.
                if (declared is null && length >= maxReceivedMessageSize)
                {
                    return Fail(buffer, ChunkedTooLarge());
                }

                if (length == buffer.Length)
                {
                    buffer = Grow(buffer, length, (int)Math.Min(2L * buffer.Length, maxReceivedMessageSize));
                }

                int read = await request.Body.ReadAsync(buffer.AsMemory(length), context.RequestAborted).ConfigureAwait(false);
                if (read == 0)
                {
                    break;
                }

                length += read;
            }

            // The charset is made out only now, when CoreWCF's encoder reads the message; failing here is its ProtocolException.
            return SoapContentType.TryGetEncoding(request.ContentType!, out Encoding? encoding)
                ? new HttpInputResult(buffer, length, encoding, null, null)
                : Fail(buffer, HttpInputResult.Reject(HttpStatusCode.BadRequest, $"the charset of content type '{request.ContentType}' cannot be made out"));
        }
        catch (BadHttpRequestException e) when (declared is null && e.StatusCode == StatusCodes.Status413PayloadTooLarge)
        {
            // Kestrel's MaxRequestBodySize, raised to MaxReceivedMessageSize above, can stop a chunked body first.
            return Fail(buffer, ChunkedTooLarge());
        }
        catch (BadHttpRequestException e)
        {
            // Kestrel's other limits and framing errors carry their own status.
            return Fail(buffer, HttpInputResult.Reject((HttpStatusCode)e.StatusCode, e.Message));
        }
        catch (Exception e) when (e is IOException or OperationCanceledException && context.RequestAborted.IsCancellationRequested)
        {
            return Fail(buffer, HttpInputResult.Aborted);
        }
    }

    /// <summary>Unquotes and URL-decodes the SOAPAction header, as CoreWCF's HttpInput does; null when absent.</summary>
    internal static string? ParseSoapAction(StringValues header)
    {
        string? raw = header.Count == 0 ? null : header[0];
        if (raw is null)
        {
            return null;
        }

        string action = WebUtility.UrlDecode(raw.Trim());
        return action.Length >= 2 && action[0] == '"' && action[^1] == '"' ? action[1..^1] : action;
    }

    private HttpInputResult ChunkedTooLarge() =>
        HttpInputResult.Reject(HttpStatusCode.BadRequest, $"the chunked body exceeds MaxReceivedMessageSize {maxReceivedMessageSize}");

    private static HttpInputResult Fail(byte[] buffer, HttpInputResult result)
    {
        ArrayPool<byte>.Shared.Return(buffer);
        return result;
    }

    private static byte[] Grow(byte[] buffer, int length, int size)
    {
        byte[] larger = ArrayPool<byte>.Shared.Rent(size);
        buffer.AsSpan(0, length).CopyTo(larger);
        ArrayPool<byte>.Shared.Return(buffer);
        return larger;
    }

    private void RaiseServerBodyLimit(HttpContext context)
    {
        // Kestrel's default limit (30 MB) would otherwise cap a larger MaxReceivedMessageSize, as CoreWCF also handles.
        IHttpMaxRequestBodySizeFeature? limit = context.Features.Get<IHttpMaxRequestBodySizeFeature>();
        if (limit is { IsReadOnly: false, MaxRequestBodySize: long current } && current < maxReceivedMessageSize)
        {
            limit.MaxRequestBodySize = maxReceivedMessageSize;
        }
    }
}

/// <summary>A body ready to parse, or the status a rejected request gets (none when the client went away).</summary>
internal readonly record struct HttpInputResult(byte[]? Buffer, int Length, Encoding? Encoding, HttpStatusCode? Status, string? Reason)
{
    public static HttpInputResult Aborted => default;

    public static HttpInputResult Reject(HttpStatusCode status, string reason) => new(null, 0, null, status, reason);
}
