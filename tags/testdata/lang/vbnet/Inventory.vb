' Stock counts per SKU.
Imports System.Collections.Generic

Namespace Shop
    Public Interface IPriced
        Function Price() As Integer
    End Interface

    Public Class Inventory
        Implements IPriced

        Public Const MaxCount As Integer = 1000
        Private ReadOnly items As New Dictionary(Of String, Integer)

        Public Sub Restock(sku As String, n As Integer)
            items(sku) = Math.Min(Count(sku) + n, MaxCount)
        End Sub

        Public Function Count(sku As String) As Integer
            Return If(items.ContainsKey(sku), items(sku), 0)
        End Function

        Public Function Price() As Integer Implements IPriced.Price
            Return Pricing.FormatCents(items.Count)
        End Function
    End Class
End Namespace

Module Defaults
    Public Enum Unit
        Piece
        Kilogram
    End Enum

    Public Structure Slot
        Public Sku As String
    End Structure

    Public Class Shelf
        Public Event Changed(sku As String)
        Public Property Label As String
    End Class
End Module
