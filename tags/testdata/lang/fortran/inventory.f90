! Stock counts per SKU.
module inventory
  use pricing, only: format_cents
  implicit none
  private
  public :: item, restock, total_value

  integer, parameter :: max_count = 1000

  type :: item
    character(len=16) :: sku
    integer :: count = 0
    integer :: cents = 0
  end type item

contains

  subroutine restock(it, n)
    type(item), intent(inout) :: it
    integer, intent(in) :: n
    it%count = min(it%count + n, max_count)
  end subroutine restock

  integer function total_value(items) result(total)
    type(item), intent(in) :: items(:)
    total = sum(items%count * items%cents)
    call format_cents(total)
  end function total_value

end module inventory

block data shop_defaults
  common /counters/ total_items
end block data shop_defaults

program restock_all
  use inventory
  implicit none
  interface notify
    subroutine notify_one(sku)
      character(len=*), intent(in) :: sku
    end subroutine notify_one
  end interface notify
end program restock_all
