using System;
using System.Collections.Generic;
using Shop.Billing.Models;

namespace Shop.Billing;

/// <summary>Issues invoices and keeps them for lookup.</summary>
[ApiController]
public sealed class InvoiceService : ServiceBase, IInvoiceService, IDisposable
{
    public const int MaxLines = 200;
    public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);
    private static int _issued;
    private readonly Dictionary<Guid, Invoice> _invoices = new();
    private readonly ITaxPolicy _tax;

    public InvoiceService(ITaxPolicy tax, ILogger<InvoiceService> logger) : base(logger)
    {
        _tax = tax ?? throw new ArgumentNullException(nameof(tax));
    }

    public int Count => _invoices.Count;

    public Invoice Issue(Customer customer, IReadOnlyList<LineItem> lines)
    {
        var invoice = new Invoice(Guid.NewGuid(), customer);
        foreach (LineItem line in lines)
        {
            invoice.Add(line, _tax.RateFor(line.Category));
        }
        _invoices[invoice.Id] = invoice;
        _issued++;
        Logger?.LogInformation("issued {Id}", invoice.Id);
        return invoice;
    }

    public Invoice? Find(Guid id) => _invoices.GetValueOrDefault(id);

    public void Dispose() => _invoices.Clear();
}

public interface IInvoiceService
{
    Invoice Issue(Customer customer, IReadOnlyList<LineItem> lines);
    int Count { get; }
}

public enum InvoiceState
{
    Draft,
    Issued,
    Paid,
}

public readonly struct Money
{
    public decimal Amount { get; init; }
}

public record InvoiceIssued(Guid InvoiceId, Money Total) : DomainEvent(InvoiceId);

public delegate void InvoiceHandler(Invoice invoice);
